import { createRuntime, generateSigningKeys, type Runtime } from '@countinghouse/kit';
import { createTestDatabase, waitFor, type TestDatabase } from '@countinghouse/kit/testing';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, requireEnv, startNode, stopAll, waitReady, type Proc } from '../processes.js';

/**
 * Distributed mode: a verifier that starts after a revocation (a restarted gateway or service) knows
 * it before it serves anything, because it replays a whole token lifetime of identity's topic before
 * it listens; identity itself loads its revocations table.
 */
const ADMIN = { username: 'replay.admin', password: 'distributed-secret-2' };
const keys = generateSigningKeys();
let db: TestDatabase;
let brokers: string;
let redis: string;
let identity: Proc | null = null;
let identityUrl = '';
const procs: Proc[] = [];
const runtimes: Runtime[] = [];

async function startIdentity() {
  const port = await freePort();
  identity = startNode('services/identity/src/main.ts', {
    PORT: String(port),
    DATABASE_URL: db.url,
    KAFKA_BROKERS: brokers,
    REDIS_URL: redis,
    JWT_PUBLIC_KEY: keys.publicKeyPem,
    JWT_PRIVATE_KEY: keys.privateKeyPem,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  identityUrl = `http://127.0.0.1:${port}`;
  await waitReady(`${identityUrl}/health/ready`, identity);
}

async function signIn(): Promise<string> {
  const r = await fetch(`${identityUrl}/api/identity/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { session_token: string }).session_token;
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  brokers = requireEnv('TEST_KAFKA_BROKERS');
  redis = requireEnv('TEST_REDIS_URL');
  db = await createTestDatabase();
  await startIdentity();
});

afterAll(async () => {
  await Promise.all([stopAll([...procs, identity]), ...runtimes.map((r) => r.close())]);
  await db?.drop();
});

describe('distributed: revocations after a restart', () => {
  it('a gateway and a service started after a sign-out refuse its token at their first request; identity restarted too', async () => {
    const revoked = await signIn();
    const live = await signIn();
    const out = await fetch(`${identityUrl}/api/identity/admin/logout`, { method: 'POST', headers: auth(revoked) });
    expect(out.status).toBe(200);
    // identity refuses it at once: its own list is updated before the answer
    expect((await fetch(`${identityUrl}/api/identity/admin/session`, { headers: auth(revoked) })).status).toBe(401);
    // the event is on Kafka
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    await waitFor(
      async () =>
        (
          await pool.query(
            `select count(*)::int as n from identity.outbox where type = 'identity.session_revoked' and published_at is not null`,
          )
        ).rows[0].n >= 1,
      'the revocation published',
      30_000,
    );
    await pool.end();

    // A gateway started now: its first answer for the revoked token is a refusal, no waiting.
    const port = await freePort();
    const gateway = startNode('gateway/src/main.ts', {
      PORT: String(port),
      HOST: '127.0.0.1',
      IDENTITY_URL: identityUrl,
      KAFKA_BROKERS: brokers,
      JWT_PUBLIC_KEY: keys.publicKeyPem,
      SIGN_IN_RATE_LIMIT: '1000',
    });
    procs.push(gateway);
    await waitReady(`http://127.0.0.1:${port}/health/live`, gateway);
    expect((await fetch(`http://127.0.0.1:${port}/api/identity/admin/session`, { headers: auth(revoked) })).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/api/identity/admin/session`, { headers: auth(live) })).status).toBe(200);

    // A service's runtime created now (as crm's would be) refuses it in its verifier straight away.
    const runtime = await createRuntime({
      serviceName: 'replay-probe',
      databaseUrl: db.url,
      poolSize: 1,
      kafkaBrokers: brokers,
      publicKeyPem: keys.publicKeyPem,
      logger: pino({ level: 'silent' }),
    });
    runtimes.push(runtime);
    await expect(runtime.verifier.verify(revoked)).rejects.toMatchObject({ code: 'SESSION_EXPIRED' });
    await expect(runtime.verifier.verify(live)).resolves.toMatchObject({ kind: 'admin' });

    // identity restarted: it loads identity.revocations before it listens.
    await identity!.stop();
    await startIdentity();
    expect((await fetch(`${identityUrl}/api/identity/users`, { headers: auth(revoked) })).status).toBe(401);
    expect((await fetch(`${identityUrl}/api/identity/users`, { headers: auth(live) })).status).toBe(200);
  });
});
