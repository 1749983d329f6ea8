import { generateSigningKeys } from '@countinghouse/kit';
import { createTestDatabase, waitFor, type TestDatabase } from '@countinghouse/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, requireEnv, startNode, stopAll, waitReady, type Proc } from '../processes.js';

/**
 * Issue 34 in distributed mode: identity, crm, records and the gateway each their own process, events
 * through Kafka. A change of a client's phone number and a view of the client record reach the records
 * service's audit trail (who, from where, what), and the chain check holds.
 */
const ADMIN = { username: 'records.admin', password: 'distributed-secret-4' };
const keys = generateSigningKeys();
let db: TestDatabase;
let pool: pg.Pool;
let base = '';
const procs: Proc[] = [];

async function startService(entry: string, env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const p = startNode(entry, { PORT: String(port), ...env });
  procs.push(p);
  const url = `http://127.0.0.1:${port}`;
  await waitReady(`${url}/health/live`, p, 90_000);
  return url;
}

async function call(method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      origin: base,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text, json: () => JSON.parse(text) };
}

beforeAll(async () => {
  const brokers = requireEnv('TEST_KAFKA_BROKERS');
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  const common = {
    DATABASE_URL: db.url,
    KAFKA_BROKERS: brokers,
    REDIS_URL: requireEnv('TEST_REDIS_URL'),
    JWT_PUBLIC_KEY: keys.publicKeyPem,
  };
  // (the three start side by side: each waits on its own, none on another)
  const [identityUrl, crmUrl, recordsUrl] = await Promise.all([
    startService('services/identity/src/main.ts', {
      ...common,
      JWT_PRIVATE_KEY: keys.privateKeyPem,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    }),
    startService('services/crm/src/main.ts', common),
    startService('services/records/src/main.ts', common),
  ]);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const gateway = startNode('gateway/src/main.ts', {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    IDENTITY_URL: identityUrl,
    CRM_URL: crmUrl,
    RECORDS_URL: recordsUrl,
    KAFKA_BROKERS: brokers,
    JWT_PUBLIC_KEY: keys.publicKeyPem,
    SIGN_IN_RATE_LIMIT: '1000',
  });
  procs.push(gateway);
  await waitReady(`${base}/health/live`, gateway, 90_000);
}, 240_000);

afterAll(async () => {
  await stopAll(procs);
  await pool?.end();
  await db?.drop();
});

describe('distributed: the audit trail through Kafka', () => {
  it('a phone change and a view of the client record each add one chained entry', async () => {
    const admin = (await call('POST', '/api/identity/admin/login', null, ADMIN)).json().session_token as string;
    const made = await call('POST', '/api/crm/clients', admin, {
      company_name: 'Kafka Audit Ltd',
      contact_email: 'k@x.co.uk',
      contact_phone: '0100',
    });
    expect(made.status, made.body).toBe(201);
    const id = made.json().id as string;
    expect((await call('PATCH', `/api/crm/clients/${id}`, admin, { contact_phone: '0200' })).status).toBe(200);
    expect((await call('GET', `/api/crm/clients/${id}/record`, admin)).status).toBe(200);
    const entries = async () =>
      (await call('GET', `/api/records/audit?client_id=${id}`, admin)).json().entries as Array<Record<string, unknown>>;
    await waitFor(async () => (await entries()).length === 3, 'three entries through Kafka', 60_000);
    const summaries = (await entries()).map((e) => e.summary);
    expect(summaries).toEqual(
      expect.arrayContaining(['Client record created', 'Changed: contact phone', 'Viewed the client record: Kafka Audit Ltd']),
    );
    expect((await entries()).every((e) => e.actor_kind === 'admin' && typeof e.ip === 'string')).toBe(true);
    const chain = (await call('GET', `/api/records/audit/chain?client_id=${id}`, admin)).json();
    expect(chain).toMatchObject({ intact: true, entries: 3 });
  });
});
