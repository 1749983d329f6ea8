import { ensureInitialAdmin } from '@countinghouse/identity';
import { createRuntime, generateSigningKeys, makeEnvelope, TokenSigner } from '@countinghouse/kit';
import { createTestDatabase, waitFor, type TestKit } from '@countinghouse/kit/testing';
import { TOPICS, type EventData, type IntegrationList, type IntegrationType, type SyncJob } from '@countinghouse/proto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomBytes, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { expect } from 'vitest';
import { composeAllInOne } from '../../../gateway/src/compose.js';
import { ADMIN, bearer, type TestGateway } from '../../../gateway/test/helpers.js';
import { parseIntegrationsConfig, providerSettings, type IntegrationsConfig } from '../src/config.js';
import { SCHEMA } from '../src/db/schema.js';
import { TokenCipher } from '../src/domain/token-cipher.js';
import { integrationsDeps } from '../src/use-cases/deps.js';
import { keepGrantsAlive } from '../src/use-cases/keep-grants-alive.js';
import { runSync } from '../src/use-cases/run-sync.js';

export interface IntegrationsGateway extends TestGateway {
  /** Every log line the app wrote (level trace), to prove no token is ever logged. */
  logs: string[];
  /** Every API answer the tests received (status, headers, body), to prove no token is ever sent. */
  answers: string[];
  /** The encryption key the service was given. */
  key: Buffer;
  /** The integrations settings the service was given. */
  config: IntegrationsConfig;
  inject: (opts: InjectOptions) => Promise<LightMyRequestResponse>;
}

/**
 * The all-in-one app on a fresh real database (as startTestGateway builds it), with the integrations
 * settings parsed from `env` (as the launcher parses its environment) and a logger that keeps every line.
 */
export async function startIntegrationsGateway(env: Record<string, string>): Promise<IntegrationsGateway> {
  const key = randomBytes(32);
  const config = parseIntegrationsConfig({
    INTEGRATIONS_ENCRYPTION_KEY: key.toString('base64'),
    INTEGRATIONS_SYNC_ATTEMPTS: '3',
    INTEGRATIONS_SYNC_BACKOFF_MS: '50',
    ...env,
  });
  const logs: string[] = [];
  const logger = pino({ level: 'trace' }, { write: (line: string) => void logs.push(line) });
  const db = await createTestDatabase();
  const keys = generateSigningKeys();
  const runtime = await createRuntime({
    serviceName: 'test',
    databaseUrl: db.url,
    poolSize: 5,
    publicKeyPem: keys.publicKeyPem,
    logger,
    relayIntervalMs: 50,
  });
  const signer = await TokenSigner.fromPem(keys.privateKeyPem);
  const kit: TestKit = {
    db,
    runtime,
    signer,
    keys,
    async close() {
      await runtime.close();
      await db.drop();
    },
  };
  const app = await composeAllInOne({
    runtime,
    signer,
    logger,
    frontendDir: null,
    signInMax: 1000,
    publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'Test Practice', phone: '0100', email: 'a@b.c' } }),
    services: { integrations: { config } },
  });
  await ensureInitialAdmin(runtime.db, ADMIN);
  const answers: string[] = [];
  const inject = async (opts: InjectOptions) => {
    const res = await app.inject(opts);
    answers.push(`${res.statusCode} ${JSON.stringify(res.headers)} ${res.body}`);
    return res;
  };
  return {
    kit,
    app,
    logs,
    answers,
    key,
    config,
    inject,
    async close() {
      await app.close();
      await kit.close();
    },
  };
}

/** crm.client_upserted through the bus, as crm's relay publishes it. */
export async function upsertClient(
  gw: TestGateway,
  c: { userId: string | null; companyName: string; assignedAccountantId?: string | null; clientId?: string },
) {
  const data: EventData<'crm.client_upserted'> = {
    clientId: c.clientId ?? randomUUID(),
    userId: c.userId,
    companyName: c.companyName,
    contactName: null,
    contactEmail: `${randomUUID().slice(0, 8)}@example.co.uk`,
    packageName: 'Growth',
    monthlyFee: 100,
    subscriptionStatus: 'active',
    assignedAccountantId: c.assignedAccountantId ?? null,
  };
  const envelope = makeEnvelope('crm.client_upserted', data, { kind: 'system', id: null });
  await gw.kit.runtime.bus.publish(TOPICS.crm, [{ key: data.clientId, envelope }]);
  return data;
}

/**
 * The browser's round trip: ask to connect, follow the consent URL at the (local) provider, which
 * redirects to our callback with code and state; the callback answers with the page to return to.
 */
export async function connect(gw: IntegrationsGateway, token: string, provider: IntegrationType) {
  const start = await gw.inject({ method: 'POST', url: `/api/integrations/${provider}/connect`, headers: bearer(token) });
  expect(start.statusCode, start.body).toBe(200);
  const authUrl = new URL(start.json().authUrl);
  const consent = await fetch(authUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get('location')!);
  expect(back.pathname).toBe(`/api/integrations/${provider}/callback`);
  const callbackPath = `${back.pathname}${back.search}`;
  const callback = await gw.inject({ method: 'GET', url: callbackPath });
  return { authUrl, callbackPath, callback };
}

export async function list(gw: IntegrationsGateway, token: string, clientId?: string): Promise<IntegrationList> {
  const res = await gw.inject({
    method: 'GET',
    url: `/api/integrations${clientId ? `?client_id=${clientId}` : ''}`,
    headers: bearer(token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export function card(l: IntegrationList, provider: IntegrationType) {
  return l.integrations.find((c) => c.integration_type === provider)!;
}

/** Start a sync and wait until its job settles. */
export async function syncAndWait(gw: IntegrationsGateway, token: string, provider: IntegrationType): Promise<SyncJob> {
  const res = await gw.inject({ method: 'POST', url: `/api/integrations/${provider}/sync`, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(202);
  const { jobId } = res.json();
  return waitFor(
    async () => {
      const s = await gw.inject({ method: 'GET', url: `/api/integrations/jobs/${jobId}`, headers: bearer(token) });
      const job = s.json() as SyncJob;
      return job.state === 'completed' || job.state === 'failed' ? job : null;
    },
    `sync job ${jobId}`,
    15_000,
    25,
  );
}

/**
 * The integrations use cases on the gateway's database, key and settings (`settings` changes some), with an injected clock: the
 * tests run the processors directly (a sync attempt, the daily keep-alive) and assert on what they compute.
 */
export function directService(
  gw: IntegrationsGateway,
  now: () => Date,
  xeroBudget?: { perMinute: number; perDay: number },
  settings: Partial<IntegrationsConfig> = {},
) {
  const config = { ...gw.config, ...settings };
  const deps = integrationsDeps({
    db: gw.kit.runtime.db,
    relay: gw.kit.runtime.relay(SCHEMA),
    jobs: gw.kit.runtime.jobs,
    logger: gw.kit.runtime.logger,
    cipher: new TokenCipher(gw.key),
    providers: providerSettings(config, 'http://localhost:3000'),
    syncAttempts: config.INTEGRATIONS_SYNC_ATTEMPTS,
    syncBackoffMs: config.INTEGRATIONS_SYNC_BACKOFF_MS,
    xeroBudget,
    now,
  });
  return {
    keepAlive: () => keepGrantsAlive(deps),
    runSync: (...args: Parameters<typeof runSync> extends [unknown, ...infer R] ? R : never) => runSync(deps, ...args),
  };
}

/** A job context for running a processor by hand. */
export function jobContext(id: string, attempt = 1) {
  const progress: number[] = [];
  return { id, attempt, progress, reportProgress: async (p: number) => void progress.push(p) };
}
