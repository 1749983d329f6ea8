import { waitFor } from '@countinghouse/kit/testing';
import { TOPICS, type EventEnvelope } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePerson, type Person } from '../../../gateway/test/helpers.js';
import { refreshTokenExpiry } from '../src/domain/keep-alive.js';
import { registerSchedules, SCHEDULES } from '../src/jobs/schedules.js';
import { card, connect, directService, list, startIntegrationsGateway, upsertClient, type IntegrationsGateway } from './helpers.js';
import { startLocalProviders, type LocalProviders } from './providers.js';

let providers: LocalProviders;
let gw: IntegrationsGateway;
let owner: Person;
const events: EventEnvelope[] = [];
const DAY = 24 * 3600_000;

beforeAll(async () => {
  providers = await startLocalProviders();
  gw = await startIntegrationsGateway(providers.env);
  owner = await makePerson(gw, 'owner@idle-client.co.uk', ['client']);
  await upsertClient(gw, { userId: owner.id, companyName: 'Idle Client Ltd' });
  await gw.kit.runtime.bus.subscribe({
    group: 'test.keep-alive-events',
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

async function grant(provider: 'xero' | 'quickbooks') {
  const id = card(await list(gw, owner.token), provider).id!;
  const { rows } = await gw.kit.runtime.pool.query(
    `select refresh_expires_at, keep_alive_at, keep_alive_outcome, refresh_token_enc from integrations.integration_credentials where integration_id = $1`,
    [id],
  );
  return {
    id,
    ...(rows[0] as { refresh_expires_at: Date; keep_alive_at: Date | null; keep_alive_outcome: string | null; refresh_token_enc: string }),
  };
}

async function setExpiry(provider: 'xero' | 'quickbooks', at: Date) {
  const { id } = await grant(provider);
  await gw.kit.runtime.pool.query(`update integrations.integration_credentials set refresh_expires_at = $2 where integration_id = $1`, [
    id,
    at,
  ]);
}

const refreshes = (p: LocalProviders['xero']) => p.tokenRequests.filter((t) => t.grantType === 'refresh_token').length;

describe('refresh-token expiry', () => {
  it('is stored at connection: Xero 60 days, Intuit its x_refresh_token_expires_in (101 days in the fake)', async () => {
    const now = Date.now();
    const xero = await grant('xero');
    expect(Math.abs(xero.refresh_expires_at.getTime() - (now + 60 * DAY))).toBeLessThan(60_000);
    const qb = await grant('quickbooks');
    expect(Math.abs(qb.refresh_expires_at.getTime() - (now + 8_726_400_000))).toBeLessThan(60_000);
    expect(refreshTokenExpiry('quickbooks', null, new Date('2026-01-01T00:00:00Z')).toISOString()).toBe('2026-04-11T00:00:00.000Z');
    expect(refreshTokenExpiry('xero', null, new Date('2026-01-01T00:00:00Z')).toISOString()).toBe('2026-03-02T00:00:00.000Z');
  });
});

describe('the daily keep-alive', () => {
  it('refreshes a grant whose refresh token lapses in 10 days, without anyone syncing; leaves one with 30 days alone', async () => {
    const now = new Date();
    await setExpiry('xero', new Date(now.getTime() + 10 * DAY));
    await setExpiry('quickbooks', new Date(now.getTime() + 30 * DAY));
    const before = await grant('xero');
    const xeroRefreshes = refreshes(providers.xero);
    const qbRefreshes = refreshes(providers.quickbooks);
    const report = await directService(gw, () => now).keepAlive();
    expect(report).toEqual({ refreshed: [before.id], refused: [], unavailable: [] });
    expect(refreshes(providers.xero)).toBe(xeroRefreshes + 1);
    expect(refreshes(providers.quickbooks)).toBe(qbRefreshes);
    const after = await grant('xero');
    expect(after.refresh_token_enc).not.toBe(before.refresh_token_enc);
    expect(Math.abs(after.refresh_expires_at.getTime() - (now.getTime() + 60 * DAY))).toBeLessThan(1000);
    expect(after).toMatchObject({ keep_alive_outcome: 'refreshed' });
    expect(after.keep_alive_at?.getTime()).toBe(now.getTime());
    // The rotated token works: a sync afterwards needs no reconnection.
    expect(card(await list(gw, owner.token), 'xero').needs_reconnect).toBe(false);
  });

  it('a provider that cannot be reached is recorded and tried again the next day, nothing marked', async () => {
    const now = new Date();
    await setExpiry('quickbooks', new Date(now.getTime() + 5 * DAY));
    const report = await directService(gw, () => now, undefined, { QUICKBOOKS_TOKEN_URL: 'http://127.0.0.1:9/unreachable' }).keepAlive();
    expect(report.unavailable).toEqual([(await grant('quickbooks')).id]);
    expect((await grant('quickbooks')).keep_alive_outcome).toBe('unavailable');
    expect(card(await list(gw, owner.token), 'quickbooks').needs_reconnect).toBe(false);
  });

  it('a refused grant marks the connection "needs reconnecting" and tells the practice (sync_failed, trigger keep_alive) and the client (an e-mail)', async () => {
    const now = new Date();
    await setExpiry('quickbooks', new Date(now.getTime() + 3 * DAY));
    providers.quickbooks.refreshAnswer = 'invalid_grant';
    try {
      const report = await directService(gw, () => now).keepAlive();
      expect(report.refused).toEqual([(await grant('quickbooks')).id]);
    } finally {
      providers.quickbooks.refreshAnswer = 'ok';
    }
    expect((await grant('quickbooks')).keep_alive_outcome).toBe('refused');
    expect(card(await list(gw, owner.token), 'quickbooks').needs_reconnect).toBe(true);
    const e = await waitFor(
      async () =>
        events.find((x) => x.type === 'integrations.sync_failed' && (x.data as { trigger?: string }).trigger === 'keep_alive') ?? null,
      'sync_failed from the keep-alive',
    );
    expect(e.data).toMatchObject({ integrationType: 'quickbooks', reason: 'needs_reconnect', clientUserId: owner.id });
    // The client's e-mail, sent by identity from that event (no SMTP here: the outgoing-mail log), once.
    const mail = await waitFor(async () => {
      const { rows } = await gw.kit.runtime.pool.query(
        `select "to", subject, body from identity.outgoing_mail where subject like 'Please reconnect%'`,
      );
      return rows.length ? rows : null;
    }, 'the client’s reconnect e-mail');
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ to: 'owner@idle-client.co.uk', subject: expect.stringMatching(/^Please reconnect QuickBooks to /) });
    expect(mail[0].body).toMatch(/connect QuickBooks again here: http.*\/integrations/);
    // The administrators' notification, raised by the notifications service from that event.
    const n = await waitFor(async () => {
      const { rows } = await gw.kit.runtime.pool.query(
        `select title, body from notifications.notifications where kind = 'integration_sync_failed'`,
      );
      return rows.find((r) => /Idle Client Ltd/.test(r.body)) ?? null;
    }, 'the admins’ notification');
    expect(n.title).toBe('Integration needs reconnecting');
    // A refused grant is not tried again by later runs.
    const again = await directService(gw, () => now).keepAlive();
    expect(again.refused).toEqual([]);
  });

  it('is registered with the job queue as a daily schedule at 03:15 London time', async () => {
    // Issue 31 added the MTD daily check beside it (its own test is in mtd-prism.test.ts).
    expect(SCHEDULES.filter((s) => s.key !== 'integrations.mtd.daily')).toEqual([
      { key: 'integrations.keep-alive.daily', cron: '15 3 * * *', job: 'integrations.keep_alive', payload: {} },
    ]);
    await registerSchedules(gw.kit.runtime.jobs);
    const listed = (await gw.kit.runtime.jobs.listSchedules()).find((s) => s.key === 'integrations.keep-alive.daily');
    expect(listed).toMatchObject({ key: 'integrations.keep-alive.daily', cron: '15 3 * * *' });
  });
});
