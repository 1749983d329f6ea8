import { generateSigningKeys } from '@countinghouse/kit';
import { createTestDatabase, waitFor, type TestDatabase } from '@countinghouse/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, requireEnv, startNode, stopAll, waitReady, type Proc } from '../processes.js';

/**
 * Issue 32 in distributed mode: identity, deadlines and the gateway each their own process, events
 * through Kafka. Deactivating an accountant makes their calendar feed answer 404 as soon as deadlines
 * hears identity.subject_access_revoked (its revocation list first, then the leavers consumer deletes
 * the feed for good), and identity's "still reach" view lists nothing once deadlines says the feed went.
 */
const ADMIN = { username: 'leavers.admin', password: 'distributed-secret-3' };
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
  // (the two start side by side: each waits on its own, neither on the other)
  const [identityUrl, deadlinesUrl] = await Promise.all([
    startService('services/identity/src/main.ts', {
      ...common,
      JWT_PRIVATE_KEY: keys.privateKeyPem,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    }),
    startService('services/deadlines/src/main.ts', common),
  ]);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const gateway = startNode('gateway/src/main.ts', {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    IDENTITY_URL: identityUrl,
    DEADLINES_URL: deadlinesUrl,
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

describe('distributed: a leaver loses everything at once', () => {
  it("a deactivated accountant's calendar feed answers 404 as soon as the event arrives; the view is empty", async () => {
    const admin = (await call('POST', '/api/identity/admin/login', null, ADMIN)).json().session_token as string;
    const email = 'kafka.accountant@x.co.uk';
    const password = 'person-password-1';
    expect((await call('POST', '/api/identity/auth/signup', null, { email, password, first_name: 'Kafka' })).status).toBe(201);
    const id = (await pool.query<{ id: string }>('select id from identity.users where email = $1', [email])).rows[0]!.id;
    const granted = await call('POST', '/api/identity/roles/grants', admin, { user_id: id, role: 'accountant' });
    expect(granted.status, granted.body).toBe(201);
    const li = await call('POST', '/api/identity/auth/login', null, { email, password });
    expect(li.status, li.body).toBe(200);
    const token = li.json().access_token as string;

    const made = await call('POST', '/api/deadlines/calendar/reset', token);
    expect(made.status, made.body).toBe(200);
    const feed = new URL(made.json().url as string).pathname;
    expect((await call('GET', feed, null)).status).toBe(200);
    // identity hears of the feed through Kafka and lists it.
    await waitFor(
      async () => (await call('GET', `/api/identity/staff/${id}/access`, admin)).json().calendar_feeds?.length === 1,
      'the feed listed by identity',
      30_000,
    );

    const d = await call('POST', `/api/identity/staff/${id}/deactivate`, admin);
    expect(d.status, d.body).toBe(200);
    const t0 = Date.now();
    await waitFor(async () => (await call('GET', feed, null)).status === 404, 'the feed refused', 15_000);
    const ms = Date.now() - t0;
    console.log(`distributed: feed refused ${ms} ms after the deactivation answered`);
    const gone = await call('GET', feed, null);
    expect(gone.json().error.code).toBe('NOT_FOUND');
    await waitFor(
      async () => (await pool.query('select 1 from deadlines.calendar_tokens where principal_id = $1', [id])).rowCount === 0,
      'the feed deleted',
      30_000,
    );
    await waitFor(
      async () => (await call('GET', `/api/identity/staff/${id}/access`, admin)).json().nothing_left === true,
      'nothing left',
      30_000,
    );
    expect((await call('GET', `/api/identity/staff/${id}/access`, admin)).json()).toMatchObject({
      roles: [],
      sessions: [],
      invitations_sent: [],
      password_reset_links: [],
      calendar_feeds: [],
    });
  });
});
