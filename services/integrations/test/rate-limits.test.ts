import { RetryLaterJobError } from '@countinghouse/kit';
import { waitFor } from '@countinghouse/kit/testing';
import { INTEGRATION_TEXTS, TOPICS, type EventEnvelope, type SyncJob } from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, makePerson, type Person } from '../../../gateway/test/helpers.js';
import { takeProviderCall } from '../src/db/queries.js';
import { parseRetryAfter, retryAtAfterLimit } from '../src/domain/rate-limit.js';
import {
  card,
  connect,
  directService,
  jobContext,
  list,
  startIntegrationsGateway,
  upsertClient,
  type IntegrationsGateway,
} from './helpers.js';
import { startLocalProviders, type LocalProviders } from './providers.js';

let providers: LocalProviders;
let gw: IntegrationsGateway;
let owner: Person;
const events: EventEnvelope[] = [];

beforeAll(async () => {
  providers = await startLocalProviders();
  gw = await startIntegrationsGateway(providers.env);
  owner = await makePerson(gw, 'owner@rate-limits.co.uk', ['client']);
  await upsertClient(gw, { userId: owner.id, companyName: 'Rate Limits Ltd' });
  await gw.kit.runtime.bus.subscribe({
    group: 'test.rate-limit-events',
    topics: [TOPICS.integrations],
    handler: async (e) => void events.push(e),
  });
  await waitFor(async () => ((await list(gw, owner.token)).client ? true : null), 'client directory');
  expect((await connect(gw, owner.token, 'xero')).callback.statusCode).toBe(302);
  expect((await connect(gw, owner.token, 'quickbooks')).callback.statusCode).toBe(302);
});
afterAll(async () => {
  await gw?.close();
  await providers?.close();
});

async function integrationId(userToken: string, provider: 'xero' | 'quickbooks') {
  return card(await list(gw, userToken), provider).id!;
}

/** A sync_jobs row as the API would create it, so a processor can be run by hand for it. */
async function syncJobRow(integration: string) {
  const jobId = randomUUID();
  await gw.kit.runtime.pool.query(`insert into integrations.sync_jobs (job_id, integration_id, requested_by) values ($1, $2, 'test')`, [
    jobId,
    integration,
  ]);
  return jobId;
}

async function jobStatus(token: string, jobId: string): Promise<SyncJob> {
  const res = await gw.inject({ method: 'GET', url: `/api/integrations/jobs/${jobId}`, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates; QuickBooks waits at least Intuit’s 60 s', () => {
    const now = new Date('2026-03-02T10:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Mon, 02 Mar 2026 10:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(retryAtAfterLimit('xero', '7', now).toISOString()).toBe('2026-03-02T10:00:07.000Z');
    expect(retryAtAfterLimit('xero', null, now).toISOString()).toBe('2026-03-02T10:01:00.000Z');
    expect(retryAtAfterLimit('quickbooks', '5', now).toISOString()).toBe('2026-03-02T10:01:00.000Z');
    expect(retryAtAfterLimit('quickbooks', '120', now).toISOString()).toBe('2026-03-02T10:02:00.000Z');
  });

  it('a Xero 429 with Retry-After: 7 schedules the next try 7 s later, says so on the page, then completes', async () => {
    providers.xero.apiFailures.push({ status: 429, retryAfter: '7' });
    const asked = Date.now();
    const res = await gw.inject({ method: 'POST', url: '/api/integrations/xero/sync', headers: bearer(owner.token) });
    expect(res.statusCode, res.body).toBe(202);
    const { jobId } = res.json();
    const waiting = await waitFor(
      async () => {
        const j = await jobStatus(owner.token, jobId);
        return j.state === 'delayed' && j.retry_at ? j : null;
      },
      'the sync to wait',
      10_000,
      25,
    );
    expect(Date.parse(waiting.retry_at!) - asked).toBeGreaterThanOrEqual(7000);
    expect(waiting.notice).toBe(INTEGRATION_TEXTS.syncWaiting('xero'));
    expect((await list(gw, owner.token)).integrations.find((c) => c.integration_type === 'xero')!.sync?.retry_at).toBe(waiting.retry_at);
    const { rows } = await gw.kit.runtime.pool.query(
      `select retry_at, retry_reason, deferrals from integrations.sync_jobs where job_id = $1`,
      [jobId],
    );
    expect(rows[0]).toMatchObject({ retry_reason: 'provider_429', deferrals: 1 });
    const calls = providers.xero.apiPaths.length;
    const done = await waitFor(
      async () => {
        const j = await jobStatus(owner.token, jobId);
        return j.state === 'completed' ? j : null;
      },
      'the sync to complete',
      15_000,
      100,
    );
    expect(done.state).toBe('completed');
    expect(Date.now() - asked).toBeGreaterThanOrEqual(7000);
    expect(providers.xero.apiPaths.length).toBeGreaterThan(calls);
  });

  it('a QuickBooks 429 without Retry-After defers the job by Intuit’s 60 s, using no attempt', async () => {
    const now = new Date('2026-03-02T10:00:00Z');
    const svc = directService(gw, () => now);
    const id = await integrationId(owner.token, 'quickbooks');
    const jobId = await syncJobRow(id);
    providers.quickbooks.apiFailures.push(429);
    const err = await svc.runSync({ integrationId: id, integrationType: 'quickbooks' }, jobContext(jobId)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryLaterJobError);
    expect((err as RetryLaterJobError).at.getTime() - now.getTime()).toBeGreaterThanOrEqual(60_000);
    expect((err as RetryLaterJobError).at.toISOString()).toBe('2026-03-02T10:01:00.000Z');
    const { rows } = await gw.kit.runtime.pool.query(`select retry_at from integrations.sync_jobs where job_id = $1`, [jobId]);
    expect(new Date(rows[0].retry_at).toISOString()).toBe('2026-03-02T10:01:00.000Z');
    // Not a failure: no sync_failed, nothing marked on the card.
    expect(card(await list(gw, owner.token), 'quickbooks').needs_reconnect).toBe(false);
  });

  it('gives up with provider_unavailable when waiting would pass 48 hours after the sync was asked for', async () => {
    const id = await integrationId(owner.token, 'quickbooks');
    const jobId = await syncJobRow(id);
    const later = new Date(Date.now() + 48 * 3600_000);
    const svc = directService(gw, () => later);
    providers.quickbooks.apiFailures.push(429);
    const err = await svc.runSync({ integrationId: id, integrationType: 'quickbooks' }, jobContext(jobId)).catch((e: unknown) => e);
    expect((err as Error).name).toBe('PermanentJobError');
    await waitFor(
      async () =>
        events.find((e) => e.type === 'integrations.sync_failed' && (e.data as { reason: string }).reason === 'provider_unavailable') ??
        null,
      'sync_failed',
    );
  });
});

describe('the per-organisation budget (Xero: 60 a minute, 5,000 a day)', () => {
  it('lets 60 calls through in a minute, then names the time the oldest leaves the window; the day limit likewise', async () => {
    const org = randomUUID();
    const t0 = new Date('2026-03-02T09:00:00Z');
    for (let i = 0; i < 60; i++) {
      expect(
        await takeProviderCall(gw.kit.runtime.db, 'xero', org, { perMinute: 60, perDay: 5000 }, new Date(t0.getTime() + i * 500)),
      ).toBeNull();
    }
    const blocked = await takeProviderCall(
      gw.kit.runtime.db,
      'xero',
      org,
      { perMinute: 60, perDay: 5000 },
      new Date(t0.getTime() + 30_000),
    );
    expect(blocked?.toISOString()).toBe('2026-03-02T09:01:00.000Z');
    // Another organisation has its own budget.
    expect(await takeProviderCall(gw.kit.runtime.db, 'xero', randomUUID(), { perMinute: 60, perDay: 5000 }, t0)).toBeNull();
    // A minute after the first call, one slot is free again.
    expect(
      await takeProviderCall(gw.kit.runtime.db, 'xero', org, { perMinute: 60, perDay: 5000 }, new Date(t0.getTime() + 60_001)),
    ).toBeNull();
    // The day: 3 a day here; the fourth waits until the first is 24 h old.
    const org2 = randomUUID();
    const day = { perMinute: 60, perDay: 3 };
    for (const m of [0, 10, 20])
      expect(await takeProviderCall(gw.kit.runtime.db, 'xero', org2, day, new Date(t0.getTime() + m * 60_000))).toBeNull();
    const next = await takeProviderCall(gw.kit.runtime.db, 'xero', org2, day, new Date(t0.getTime() + 3600_000));
    expect(next?.toISOString()).toBe('2026-03-03T09:00:00.000Z');
  });

  it('concurrent takers (as replicas would be) never exceed the budget', async () => {
    const org = randomUUID();
    const now = new Date();
    const results = await Promise.all(
      Array.from({ length: 12 }, () => takeProviderCall(gw.kit.runtime.db, 'xero', org, { perMinute: 5, perDay: 5000 }, now)),
    );
    expect(results.filter((r) => r === null)).toHaveLength(5);
  });

  it('a sync that finds the budget spent calls nothing and is re-queued for when it refills', async () => {
    const now = new Date('2026-03-02T11:00:00Z');
    const svc = directService(gw, () => now, { perMinute: 1, perDay: 5000 });
    const id = await integrationId(owner.token, 'xero');
    // An organisation of its own, whose one call of this minute was made 10 s ago.
    const tenant = randomUUID();
    providers.xero.tenants.add(tenant);
    await gw.kit.runtime.pool.query(`update integrations.integration_credentials set external_id = $2 where integration_id = $1`, [
      id,
      tenant,
    ]);
    await takeProviderCall(gw.kit.runtime.db, 'xero', tenant, { perMinute: 1, perDay: 5000 }, new Date(now.getTime() - 10_000));
    const jobId = await syncJobRow(id);
    const before = providers.xero.apiPaths.length;
    const err = await svc.runSync({ integrationId: id, integrationType: 'xero' }, jobContext(jobId)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryLaterJobError);
    expect((err as RetryLaterJobError).at.toISOString()).toBe('2026-03-02T11:00:50.000Z');
    expect(providers.xero.apiPaths.length).toBe(before);
    const job = await gw.kit.runtime.pool.query(`select retry_reason from integrations.sync_jobs where job_id = $1`, [jobId]);
    expect(job.rows[0].retry_reason).toBe('budget');
  });
});

describe('a practice-wide sync', () => {
  it('five organisations syncing at once all finish, Xero’s 429s spread out rather than failed', async () => {
    const people = await Promise.all(
      [1, 2, 3, 4, 5].map(async (n) => {
        const p = await makePerson(gw, `owner${n}@five-orgs.co.uk`, ['client']);
        await upsertClient(gw, { userId: p.id, companyName: `Five Orgs ${n} Ltd` });
        return p;
      }),
    );
    for (const p of people) {
      await waitFor(async () => ((await list(gw, p.token)).client ? true : null), 'client directory');
      expect((await connect(gw, p.token, 'xero')).callback.statusCode).toBe(302);
      // Each is its own Xero organisation (tenant).
      const tenant = randomUUID();
      providers.xero.tenants.add(tenant);
      await gw.kit.runtime.pool.query(`update integrations.integration_credentials set external_id = $2 where integration_id = $1`, [
        await integrationId(p.token, 'xero'),
        tenant,
      ]);
    }
    // Xero's app-wide limit, made small: four calls a second, then 429 with Retry-After: 1.
    providers.xero.appLimit = { calls: 4, retryAfter: '1' };
    try {
      const jobs = await Promise.all(
        people.map(async (p) => {
          const res = await gw.inject({ method: 'POST', url: '/api/integrations/xero/sync', headers: bearer(p.token) });
          expect(res.statusCode, res.body).toBe(202);
          return { p, jobId: res.json().jobId as string };
        }),
      );
      const states = await Promise.all(
        jobs.map(({ p, jobId }) =>
          waitFor(
            async () => {
              const j = await jobStatus(p.token, jobId);
              return j.state === 'completed' || j.state === 'failed' ? j.state : null;
            },
            `sync ${jobId}`,
            60_000,
            100,
          ),
        ),
      );
      expect(states).toEqual(['completed', 'completed', 'completed', 'completed', 'completed']);
      expect(providers.xero.limited).toBeGreaterThan(0);
      for (const p of people) expect(card(await list(gw, p.token), 'xero').last_sync_at).not.toBeNull();
    } finally {
      providers.xero.appLimit = null;
    }
  }, 90_000);
});
