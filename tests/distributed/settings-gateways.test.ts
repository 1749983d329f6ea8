import { generateSigningKeys, TokenSigner } from '@countinghouse/kit';
import { createTestDatabase, waitFor, type TestDatabase } from '@countinghouse/kit/testing';
import type { PublicConfig, SettingsPatchReply } from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, requireEnv, startNode, stopAll, waitReady, type Proc } from '../processes.js';

// The settings service and two gateway instances as separate processes on Kafka: a change made
// through one gateway reaches the other by the settings.changed event (each instance its own group).
let db: TestDatabase;
let settings: Proc;
const gateways: Proc[] = [];
const urls: string[] = [];
let adminToken: string;
let settingsUrl: string;
let publicKeyPem: string;
let namespace: string;

beforeAll(async () => {
  const brokers = requireEnv('TEST_KAFKA_BROKERS');
  const redis = requireEnv('TEST_REDIS_URL');
  db = await createTestDatabase();
  const keys = generateSigningKeys();
  const signer = await TokenSigner.fromPem(keys.privateKeyPem);
  // An admin panel token as identity would sign it (identity is not needed for this path).
  adminToken = (await signer.sign({ sub: randomUUID(), sid: randomUUID(), knd: 'admin', roles: ['admin'], name: 'dist.admin' })).token;

  // Topics of this run alone: the gateways replay the last ten minutes of settings.changed at start
  // (services/kit/src/live-settings.ts), and on the shared broker an earlier run's "maintenance on"
  // (version 2) is newer than this fresh database's version 1, so it was taken (decision 687).
  namespace = `settings-${randomUUID().slice(0, 8)}.`;
  const settingsPort = await freePort();
  settingsUrl = `http://127.0.0.1:${settingsPort}`;
  publicKeyPem = keys.publicKeyPem;
  settings = startNode('services/settings/src/main.ts', {
    PORT: String(settingsPort),
    DATABASE_URL: db.url,
    KAFKA_BROKERS: brokers,
    KAFKA_NAMESPACE: namespace,
    REDIS_URL: redis,
    JWT_PUBLIC_KEY: keys.publicKeyPem,
    PRACTICE_NAME: 'Distributed Practice',
    PRACTICE_PHONE: '020 7946 0111',
    PRACTICE_EMAIL: 'dist@example.co.uk',
  });
  await waitReady(`${settingsUrl}/health/ready`, settings);
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const gw = startNode('gateway/src/main.ts', {
      PORT: String(port),
      HOST: '127.0.0.1',
      // Not called here; the gateway requires an identity upstream.
      IDENTITY_URL: 'http://127.0.0.1:9',
      SETTINGS_URL: settingsUrl,
      KAFKA_BROKERS: brokers,
      KAFKA_NAMESPACE: namespace,
      JWT_PUBLIC_KEY: keys.publicKeyPem,
    });
    gateways.push(gw);
    urls.push(`http://127.0.0.1:${port}`);
  }
  // Ready includes "settings loaded from SETTINGS_URL".
  await Promise.all(urls.map((u, i) => waitReady(`${u}/health/live`, gateways[i]!)));
  await Promise.all(urls.map((u) => settingsLoaded(u)));
}, 180_000);

afterAll(async () => {
  await stopAll([...gateways, settings]);
  await db?.drop();
});

/** /health/ready also checks the identity upstream, absent here: look at the settings check alone. */
async function settingsLoaded(url: string) {
  await waitFor(
    async () =>
      ((await (await fetch(`${url}/health/ready`)).json()) as { checks: Record<string, string> }).checks.practiceSettings === 'ok',
    `settings loaded at ${url}`,
    60_000,
  );
}

const config = async (url: string) => (await (await fetch(`${url}/api/public/config`)).json()) as PublicConfig;

describe('distributed: practice settings on every gateway instance', () => {
  it('both gateways loaded the settings at start; a change through the first reaches the second by event', async () => {
    for (const u of urls) expect(await config(u)).toMatchObject({ maintenance: false, practice: { name: 'Distributed Practice' } });

    const r = await fetch(`${urls[0]}/api/settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ maintenance: true, phone: '0161 496 0123' }),
    });
    expect(r.status).toBe(200);
    expect(((await r.json()) as SettingsPatchReply).changed).toEqual(['phone', 'maintenance']);

    for (const u of urls) {
      await waitFor(async () => (await config(u)).maintenance === true, `maintenance on at ${u}`, 30_000);
      expect((await config(u)).practice.phone).toBe('0161 496 0123');
    }
  }, 90_000);

  it('a gateway instance started afterwards (a restart) serves the stored settings', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const gw = startNode('gateway/src/main.ts', {
      PORT: String(port),
      HOST: '127.0.0.1',
      IDENTITY_URL: 'http://127.0.0.1:9',
      SETTINGS_URL: settingsUrl,
      KAFKA_BROKERS: requireEnv('TEST_KAFKA_BROKERS'),
      KAFKA_NAMESPACE: namespace,
      JWT_PUBLIC_KEY: publicKeyPem,
    });
    gateways.push(gw);
    await waitReady(`${url}/health/live`, gw);
    await settingsLoaded(url);
    expect(await config(url)).toMatchObject({ maintenance: true, practice: { phone: '0161 496 0123' } });
  }, 90_000);
});
