import { generateSigningKeys } from '@countinghouse/kit';
import { createTestDatabase, waitFor, type TestDatabase } from '@countinghouse/kit/testing';
import { TOPICS, topicOf, type EventEnvelope } from '@countinghouse/proto';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwnKafka, type OwnKafka } from '../kafka-broker.js';
import { freePort, requireEnv, startNode, stopAll, waitReady, type Proc } from '../processes.js';

const ADMIN = { username: 'dist.admin', password: 'distributed-secret-1' };
let db: TestDatabase;
let identity: Proc;
let gateway: Proc;
let gatewayUrl: string;
let brokers: string;
// (a broker of this file's own: the outbox test stops it, and npm test's broker serves files running
// meanwhile, browser-distributed's product among them)
let kafka: OwnKafka;
const events: EventEnvelope[] = [];
let consumer: Consumer | null = null;

/** A consumer in this test process: a different process from identity, which publishes. */
async function startConsumer() {
  const kafka = new Kafka({
    clientId: 'test-consumer',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
    retry: { retries: 20, initialRetryTime: 300 },
  });
  consumer = kafka.consumer({ groupId: `test-${Date.now()}-${Math.random()}`, sessionTimeout: 10_000, heartbeatInterval: 1000 });
  await consumer.connect();
  // sign-ins are on a topic of their own (proto's OWN_TOPICS), revocations on identity's; on a fresh
  // broker neither exists before identity's first publish, so they are made here (as the bus does)
  const topics = [...new Set([TOPICS.identity, topicOf('identity.admin_signed_in')])];
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: topics.map((topic) => ({ topic })), waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
  for (const topic of topics) await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      if (message.value) events.push(JSON.parse(message.value.toString()));
    },
  });
}

async function signIn() {
  const r = await fetch(`${gatewayUrl}/api/identity/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return { status: r.status, body: (await r.json()) as { session_token: string; user: { id: string } } };
}

function sessionIdOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;
}

beforeAll(async () => {
  kafka = await startOwnKafka('ch-outbox-kafka-');
  brokers = kafka.brokers;
  const redis = requireEnv('TEST_REDIS_URL');
  db = await createTestDatabase();
  const keys = generateSigningKeys();
  const identityPort = await freePort();
  const gatewayPort = await freePort();
  identity = startNode('services/identity/src/main.ts', {
    PORT: String(identityPort),
    DATABASE_URL: db.url,
    KAFKA_BROKERS: brokers,
    REDIS_URL: redis,
    JWT_PUBLIC_KEY: keys.publicKeyPem,
    JWT_PRIVATE_KEY: keys.privateKeyPem,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  await waitReady(`http://127.0.0.1:${identityPort}/health/ready`, identity);
  gateway = startNode('gateway/src/main.ts', {
    PORT: String(gatewayPort),
    HOST: '127.0.0.1',
    IDENTITY_URL: `http://127.0.0.1:${identityPort}`,
    KAFKA_BROKERS: brokers,
    JWT_PUBLIC_KEY: keys.publicKeyPem,
    SIGN_IN_RATE_LIMIT: '1000',
  });
  gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  await waitReady(`${gatewayUrl}/health/ready`, gateway);
  await startConsumer();
});

afterAll(async () => {
  await consumer?.disconnect().catch(() => {});
  await stopAll([gateway, identity]);
  await db?.drop();
  kafka?.remove();
});

describe('distributed: identity and the gateway as separate processes on Kafka', () => {
  it('a sign-in through the gateway arrives on Kafka as identity.admin_signed_in', async () => {
    const { status, body } = await signIn();
    expect(status).toBe(200);
    const sid = sessionIdOf(body.session_token);
    const e = await waitFor(
      () => events.find((x) => x.type === 'identity.admin_signed_in' && (x.data as { sessionId: string }).sessionId === sid),
      'the event on Kafka',
      30_000,
    );
    expect(e).toMatchObject({ version: 1, actor: { kind: 'admin', id: body.user.id }, data: { username: ADMIN.username } });
  });

  it('a logout revokes the session at the gateway and at identity (revocation travels by Kafka)', async () => {
    const { body } = await signIn();
    const auth = { authorization: `Bearer ${body.session_token}` };
    expect((await fetch(`${gatewayUrl}/api/identity/admin/session`, { headers: auth })).status).toBe(200);
    const out = await fetch(`${gatewayUrl}/api/identity/admin/logout`, { method: 'POST', headers: auth });
    expect(out.status).toBe(200);
    await waitFor(
      async () => (await fetch(`${gatewayUrl}/api/identity/admin/session`, { headers: auth })).status === 401,
      'the old token refused',
      20_000,
    );
  });

  it('outbox: with Kafka stopped sign-ins still succeed, and their events arrive after Kafka returns', async () => {
    kafka.stop();
    const sids: string[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const { status, body } = await signIn();
        expect(status).toBe(200);
        sids.push(sessionIdOf(body.session_token));
      }
      const pool = new pg.Pool({ connectionString: db.url, max: 1 });
      const pending = await waitFor(async () => {
        const { rows } = await pool.query(
          `select count(*)::int as n from identity.outbox where published_at is null and type = 'identity.admin_signed_in'`,
        );
        return rows[0].n >= 3 ? rows[0].n : null;
      }, 'unpublished events held in the outbox');
      expect(pending).toBeGreaterThanOrEqual(3);
      await pool.end();
      expect(events.filter((x) => sids.includes((x.data as { sessionId: string }).sessionId))).toHaveLength(0);
    } finally {
      kafka.start();
    }
    await waitFor(
      () =>
        sids.every((sid) =>
          events.some((x) => x.type === 'identity.admin_signed_in' && (x.data as { sessionId: string }).sessionId === sid),
        ),
      'all three events after Kafka returned',
      90_000,
      250,
    );
  });
});
