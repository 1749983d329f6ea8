import { integrationsPlugin, parseIntegrationsConfig } from '@countinghouse/integrations';
import {
  authContext,
  BullMqJobQueue,
  createApp,
  createRuntime,
  generateSigningKeys,
  makeEnvelope,
  TokenSigner,
  type App,
  type JobQueue,
  type Runtime,
} from '@countinghouse/kit';
import { createTestDatabase, waitFor, type TestDatabase } from '@countinghouse/kit/testing';
import { TOPICS, type IntegrationList, type SyncJob } from '@countinghouse/proto';
import { randomBytes, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED, startLocalProviders, type LocalProviders } from '../../services/integrations/test/providers.js';
import { requireEnv } from '../processes.js';

/**
 * The integrations service alone (as its own process runs it: the plugin under /api/integrations),
 * its sync jobs on BullMQ with real Redis, and the same scenario on the PostgreSQL queue (all-in-one's).
 */
let providers: LocalProviders;
beforeAll(async () => {
  providers = await startLocalProviders();
});
afterAll(async () => {
  await providers?.close();
});

interface Service {
  app: App;
  runtime: Runtime;
  jobs: JobQueue;
  token: string;
  close(): Promise<void>;
}

async function startService(kind: 'bullmq' | 'postgres'): Promise<Service> {
  const db: TestDatabase = await createTestDatabase();
  const keys = generateSigningKeys();
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const base = await createRuntime({
    serviceName: 'integrations',
    databaseUrl: db.url,
    poolSize: 5,
    publicKeyPem: keys.publicKeyPem,
    logger,
    relayIntervalMs: 50,
  });
  // A queue prefix of this run's own, so no other worker on the shared Redis takes these jobs.
  const jobs: JobQueue =
    kind === 'bullmq'
      ? new BullMqJobQueue(requireEnv('TEST_REDIS_URL'), logger, `test-integrations-${randomUUID().slice(0, 8)}`)
      : base.jobs;
  const runtime: Runtime = { ...base, jobs };
  const app = createApp({ logger });
  await app.register(authContext, { verifier: runtime.verifier });
  const config = parseIntegrationsConfig({ ...providers.env, INTEGRATIONS_SYNC_ATTEMPTS: '3', INTEGRATIONS_SYNC_BACKOFF_MS: '100' });
  await app.register(async (scope) => scope.register(integrationsPlugin, { runtime, config, encryptionKey: randomBytes(32) }), {
    prefix: '/api/integrations',
  });
  await app.ready();
  const userId = randomUUID();
  const signer = await TokenSigner.fromPem(keys.privateKeyPem);
  const { token } = await signer.sign({ sub: userId, sid: randomUUID(), knd: 'user', roles: ['client'], name: 'Owner' });
  const envelope = makeEnvelope(
    'crm.client_upserted',
    {
      clientId: randomUUID(),
      userId,
      companyName: 'Acme Bakery Ltd',
      contactName: null,
      contactEmail: 'owner@acme-bakery.co.uk',
      packageName: 'Growth',
      monthlyFee: 100,
      subscriptionStatus: 'active',
      assignedAccountantId: null,
    },
    { kind: 'system', id: null },
  );
  await runtime.bus.publish(TOPICS.crm, [{ key: null, envelope }]);
  return {
    app,
    runtime,
    jobs,
    token,
    async close() {
      await app.close();
      await jobs.close();
      await base.close();
      await db.drop();
    },
  };
}

async function connect(s: Service, provider: 'xero' | 'quickbooks') {
  const start = await s.app.inject({
    method: 'POST',
    url: `/api/integrations/${provider}/connect`,
    headers: { authorization: `Bearer ${s.token}` },
  });
  expect(start.statusCode, start.body).toBe(200);
  const consent = await fetch(start.json().authUrl, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location')!);
  const cb = await s.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
  expect(cb.headers.location).toBe(`/integrations?${provider}=connected`);
}

async function sync(s: Service, provider: 'xero' | 'quickbooks'): Promise<SyncJob> {
  const res = await s.app.inject({
    method: 'POST',
    url: `/api/integrations/${provider}/sync`,
    headers: { authorization: `Bearer ${s.token}` },
  });
  expect(res.statusCode, res.body).toBe(202);
  const { jobId } = res.json();
  return waitFor(
    async () => {
      const r = await s.app.inject({
        method: 'GET',
        url: `/api/integrations/jobs/${jobId}`,
        headers: { authorization: `Bearer ${s.token}` },
      });
      const j = r.json() as SyncJob;
      return j.state === 'completed' || j.state === 'failed' ? j : null;
    },
    `sync ${jobId}`,
    30_000,
    20,
  );
}

async function cards(s: Service): Promise<IntegrationList> {
  return (await s.app.inject({ method: 'GET', url: '/api/integrations', headers: { authorization: `Bearer ${s.token}` } })).json();
}

for (const kind of ['bullmq', 'postgres'] as const) {
  describe(`sync processor on ${kind === 'bullmq' ? 'BullMQ with real Redis' : 'the PostgreSQL queue'}`, () => {
    let s: Service;
    beforeAll(async () => {
      s = await startService(kind);
    });
    afterAll(async () => {
      await s?.close();
    });

    it('connects both providers and syncs them through the queue', async () => {
      expect(s.jobs.kind).toBe(kind);
      await connect(s, 'xero');
      await connect(s, 'quickbooks');
      const [x, q] = await Promise.all([sync(s, 'xero'), sync(s, 'quickbooks')]);
      expect(x).toMatchObject({ state: 'completed', progress: 100 });
      expect(q).toMatchObject({ state: 'completed', progress: 100 });
      const l = await cards(s);
      expect(l.integrations.map((c) => c.integration_data)).toEqual([
        { company_name: EXPECTED.xero.company, summary: EXPECTED.xero.summary },
        { company_name: EXPECTED.quickbooks.company, summary: EXPECTED.quickbooks.summary },
      ]);
      expect(l.integrations.every((c) => c.sync?.state === 'completed' && c.last_sync_at)).toBe(true);
    });

    it('a 429 waits its Retry-After and completes, using no attempt', async () => {
      providers.xero.apiFailures = [{ status: 429, retryAfter: '1' }];
      const t0 = Date.now();
      const job = await sync(s, 'xero');
      expect(job.state).toBe('completed');
      expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
      expect((await s.jobs.status('integrations.sync', job.id))!.attemptsMade).toBe(1);
    });

    it('a revoked grant fails at once, without retrying, and needs reconnection', async () => {
      await s.runtime.pool.query(`update integrations.integration_credentials set access_expires_at = now() - interval '1 hour'`);
      providers.quickbooks.refreshAnswer = 'invalid_grant';
      try {
        const job = await sync(s, 'quickbooks');
        expect(job.state).toBe('failed');
        expect(job.error).toMatch(/Please connect again/);
        const status = (await s.jobs.status('integrations.sync', job.id))!;
        expect(status.attemptsMade).toBe(1);
        // give a retry the time it would need, to be sure none comes
        await new Promise((r) => setTimeout(r, 400));
        expect((await s.jobs.status('integrations.sync', job.id))!).toMatchObject({ state: 'failed', attemptsMade: 1 });
        expect((await cards(s)).integrations.find((c) => c.integration_type === 'quickbooks')!.needs_reconnect).toBe(true);
      } finally {
        providers.quickbooks.refreshAnswer = 'ok';
      }
    });
  });
}
