import { TOPICS, type EventEnvelope, type IntegrationType } from '@countinghouse/proto';
import { waitFor } from '@countinghouse/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, makePerson, type Person } from '../../../gateway/test/helpers.js';
import { TokenCipher } from '../src/domain/token-cipher.js';
import { card, connect, list, startIntegrationsGateway, syncAndWait, upsertClient, type IntegrationsGateway } from './helpers.js';
import { EXPECTED, QB_REALM, startLocalProviders, XERO_TENANT, type LocalProviders } from './providers.js';

let providers: LocalProviders;
let gw: IntegrationsGateway;
let owner: Person;
let clientId: string;
const events: EventEnvelope[] = [];

beforeAll(async () => {
  providers = await startLocalProviders();
  gw = await startIntegrationsGateway(providers.env);
  owner = await makePerson(gw, 'owner@acme-bakery.co.uk', ['client']);
  clientId = (await upsertClient(gw, { userId: owner.id, companyName: 'Acme Bakery Ltd' })).clientId;
  await gw.kit.runtime.bus.subscribe({
    group: 'test.integrations-events',
    topics: [TOPICS.integrations],
    handler: async (e) => void events.push(e),
  });
});
afterAll(async () => {
  await gw?.close();
  await providers?.close();
});

async function credentials(provider: IntegrationType) {
  const { rows } = await gw.kit.runtime.pool.query(
    `select c.* from integrations.integration_credentials c join integrations.client_integrations i on i.id = c.integration_id
     where i.client_id = $1 and i.integration_type = $2`,
    [clientId, provider],
  );
  return rows[0] as { integration_id: string; external_id: string; access_token_enc: string; refresh_token_enc: string } | undefined;
}

async function count(table: string): Promise<number> {
  const { rows } = await gw.kit.runtime.pool.query(`select count(*)::int as n from integrations.${table}`);
  return rows[0].n;
}

const eventsOf = (type: string, provider: IntegrationType) =>
  events.filter((e) => e.type === type && (e.data as { integrationType: string }).integrationType === provider);

describe('before connecting', () => {
  it('shows one Not Connected card per provider, configured on this server', async () => {
    const l = await list(gw, owner.token);
    expect(l.client).toEqual({ id: clientId, company_name: 'Acme Bakery Ltd' });
    expect(
      l.integrations.map((c) => [c.integration_type, c.is_active, c.configured, c.last_sync_at, c.integration_data.company_name]),
    ).toEqual([
      ['xero', false, true, null, null],
      ['quickbooks', false, true, null, null],
    ]);
  });

  it('refuses a wrong state, stores nothing, and sends the browser back with ?xero=error', async () => {
    const start = await gw.inject({ method: 'POST', url: '/api/integrations/xero/connect', headers: bearer(owner.token) });
    const url = new URL(start.json().authUrl);
    const consent = await fetch(url, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    back.searchParams.set('state', 'not-the-state-we-issued');
    const res = await gw.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/integrations?xero=error');
    // no state at all, the provider's own error, and a Xero state presented to the QuickBooks callback
    expect((await gw.inject({ method: 'GET', url: '/api/integrations/xero/callback?code=abc' })).headers.location).toBe(
      '/integrations?xero=error',
    );
    const denied = await gw.inject({
      method: 'GET',
      url: `/api/integrations/xero/callback?error=access_denied&state=${url.searchParams.get('state')}`,
    });
    expect(denied.headers.location).toBe('/integrations?xero=error');
    const start2 = await gw.inject({ method: 'POST', url: '/api/integrations/xero/connect', headers: bearer(owner.token) });
    const back2 = new URL((await fetch(start2.json().authUrl, { redirect: 'manual' })).headers.get('location')!);
    const crossed = await gw.inject({ method: 'GET', url: `/api/integrations/quickbooks/callback${back2.search}` });
    expect(crossed.headers.location).toBe('/integrations?quickbooks=error');
    expect(await count('client_integrations')).toBe(0);
    expect(await count('integration_credentials')).toBe(0);
    expect(providers.xero.tokenRequests).toHaveLength(0);
  });

  it('refuses an expired state', async () => {
    const start = await gw.inject({ method: 'POST', url: '/api/integrations/xero/connect', headers: bearer(owner.token) });
    const back = new URL((await fetch(start.json().authUrl, { redirect: 'manual' })).headers.get('location')!);
    await gw.kit.runtime.pool.query(`update integrations.oauth_states set expires_at = now() - interval '1 second' where used_at is null`);
    const res = await gw.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(res.headers.location).toBe('/integrations?xero=error');
    expect(await count('client_integrations')).toBe(0);
  });
});

describe('Xero: connect, sync, refresh, revoked grant, disconnect', () => {
  let callbackPath: string;

  it('connects through the authorization-code flow with PKCE and records the organisation', async () => {
    providers.xero.expiresIn = 1800;
    const r = await connect(gw, owner.token, 'xero');
    callbackPath = r.callbackPath;
    const q = r.authUrl.searchParams;
    expect(`${r.authUrl.origin}${r.authUrl.pathname}`).toBe(providers.env.XERO_AUTH_URL);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe('xero-test-client');
    expect(q.get('redirect_uri')).toBe('http://localhost:3000/api/integrations/xero/callback');
    expect(q.get('scope')).toBe(
      'offline_access accounting.settings.read accounting.contacts.read accounting.invoices.read accounting.reports.profitandloss.read',
    );
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.callback.statusCode).toBe(302);
    expect(r.callback.headers.location).toBe('/integrations?xero=connected');

    // the code exchange authenticated with the app's credentials and proved the PKCE verifier
    const exchange = providers.xero.tokenRequests.find((t) => t.grantType === 'authorization_code')!;
    expect(exchange.authorization).toBe(`Basic ${Buffer.from('xero-test-client:xero-test-secret').toString('base64')}`);
    expect(exchange.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const c = card(await list(gw, owner.token), 'xero');
    expect(c).toMatchObject({
      is_active: true,
      needs_reconnect: false,
      last_sync_at: null,
      integration_data: { company_name: EXPECTED.xero.company },
    });
    // the connection made by this consent, not the older one
    expect((await credentials('xero'))!.external_id).toBe(XERO_TENANT.tenantId);
    await waitFor(() => eventsOf('integrations.connected', 'xero').length === 1, 'integrations.connected');
  });

  it('stores the tokens encrypted (AES-256-GCM, bound to the integration)', async () => {
    const cred = (await credentials('xero'))!;
    const [access, refresh] = providers.xero.issued.slice(-3);
    expect(cred.access_token_enc).not.toContain(access);
    expect(cred.access_token_enc).toMatch(/^v1\./);
    const cipher = new TokenCipher(gw.key);
    expect(cipher.decrypt(cred.access_token_enc, `${cred.integration_id}:access`)).toBe(access);
    expect(cipher.decrypt(cred.refresh_token_enc, `${cred.integration_id}:refresh`)).toBe(providers.xero.currentRefresh);
    expect(refresh).toBeDefined();
    // a ciphertext moved to another purpose does not open
    expect(() => cipher.decrypt(cred.access_token_enc, `${cred.integration_id}:refresh`)).toThrow();
  });

  it('a replayed callback is refused and changes nothing', async () => {
    const before = await credentials('xero');
    const tokenCalls = providers.xero.tokenRequests.length;
    const res = await gw.inject({ method: 'GET', url: callbackPath });
    expect(res.headers.location).toBe('/integrations?xero=error');
    expect(await credentials('xero')).toEqual(before);
    expect(providers.xero.tokenRequests.length).toBe(tokenCalls);
  });

  it('syncs: organisation, contacts and invoices summarised into integration_data, last_sync_at set, integrations.synced', async () => {
    const refreshes = providers.xero.tokenRequests.filter((t) => t.grantType === 'refresh_token').length;
    const job = await syncAndWait(gw, owner.token, 'xero');
    expect(job).toMatchObject({ state: 'completed', progress: 100, integration_type: 'xero' });
    const c = card(await list(gw, owner.token), 'xero');
    expect(c.integration_data).toEqual({ company_name: EXPECTED.xero.company, summary: EXPECTED.xero.summary });
    expect(Date.now() - Date.parse(c.last_sync_at!)).toBeLessThan(60_000);
    expect(c.sync).toMatchObject({ id: job.id, state: 'completed' });
    // the token was fresh: no refresh
    expect(providers.xero.tokenRequests.filter((t) => t.grantType === 'refresh_token').length).toBe(refreshes);
    expect(providers.xero.apiPaths.some((p) => p.startsWith('/api.xro/2.0/Invoices?') && p.includes('Statuses=AUTHORISED'))).toBe(true);
    const synced = await waitFor(() => eventsOf('integrations.synced', 'xero')[0], 'integrations.synced');
    expect(synced.data).toMatchObject({ clientId, receivables: 1600.75, overdueReceivables: 1200.5, currency: 'GBP' });
  });

  it('refreshes an expired access token first, and keeps the rotated refresh token', async () => {
    await gw.kit.runtime.pool.query(`update integrations.integration_credentials set access_expires_at = now() - interval '1 minute'`);
    const oldRefresh = providers.xero.currentRefresh;
    const before = (await credentials('xero'))!;
    const job = await syncAndWait(gw, owner.token, 'xero');
    expect(job.state).toBe('completed');
    const refresh = providers.xero.tokenRequests.filter((t) => t.grantType === 'refresh_token');
    expect(refresh.at(-1)!.refreshToken).toBe(oldRefresh);
    const after = (await credentials('xero'))!;
    expect(after.refresh_token_enc).not.toBe(before.refresh_token_enc);
    const cipher = new TokenCipher(gw.key);
    expect(cipher.decrypt(after.refresh_token_enc, `${after.integration_id}:refresh`)).toBe(providers.xero.currentRefresh);
    expect(providers.xero.currentRefresh).not.toBe(oldRefresh);
    // the API calls after the refresh carried the new access token
    expect(providers.xero.apiTokens.at(-1)).toBe(cipher.decrypt(after.access_token_enc, `${after.integration_id}:access`));

    // a short-lived token (inside the one-minute margin) is refreshed as well; the next sync uses the new one
    providers.xero.expiresIn = 30;
    await gw.kit.runtime.pool.query(`update integrations.integration_credentials set access_expires_at = now() - interval '1 minute'`);
    expect((await syncAndWait(gw, owner.token, 'xero')).state).toBe('completed');
    const n = providers.xero.tokenRequests.filter((t) => t.grantType === 'refresh_token').length;
    expect((await syncAndWait(gw, owner.token, 'xero')).state).toBe('completed');
    expect(providers.xero.tokenRequests.filter((t) => t.grantType === 'refresh_token').length).toBe(n + 1);
    providers.xero.expiresIn = 1800;
  });

  it('waits out a 429 as its Retry-After says, using no attempt, then completes', async () => {
    providers.xero.apiFailures = [{ status: 429, retryAfter: '1' }];
    const job = await syncAndWait(gw, owner.token, 'xero');
    expect(job.state).toBe('completed');
    const row = await gw.kit.runtime.pool.query(
      `select last_sync_error from integrations.client_integrations where integration_type = 'xero'`,
    );
    expect(row.rows[0].last_sync_error).toBeNull();
    const status = await gw.kit.runtime.jobs.status('integrations.sync', job.id);
    expect(status!.attemptsMade).toBe(1);
  });

  it('gives up after its attempts when the provider stays down (5xx): Failed to sync data, integrations.sync_failed', async () => {
    providers.xero.apiFailures = [503, 502, 500];
    const job = await syncAndWait(gw, owner.token, 'xero');
    expect(job).toMatchObject({ state: 'failed', error: 'Failed to sync data' });
    expect((await gw.kit.runtime.jobs.status('integrations.sync', job.id))!.attemptsMade).toBe(3);
    await waitFor(
      () => eventsOf('integrations.sync_failed', 'xero').some((e) => (e.data as { reason: string }).reason === 'provider_unavailable'),
      'sync_failed',
    );
    expect(card(await list(gw, owner.token), 'xero')).toMatchObject({ is_active: true, needs_reconnect: false });
  });

  it('a revoked grant (invalid_grant) marks the integration as needing reconnection, without retrying', async () => {
    // the client removed the app at Xero: the access token is refused, the refresh token too
    providers.xero.validAccess.clear();
    providers.xero.refreshAnswer = 'invalid_grant';
    const refreshes = providers.xero.tokenRequests.filter((t) => t.grantType === 'refresh_token').length;
    const job = await syncAndWait(gw, owner.token, 'xero');
    expect(job.state).toBe('failed');
    expect(job.error).toBe('The connection to Xero has expired or was revoked. Please connect again.');
    expect((await gw.kit.runtime.jobs.status('integrations.sync', job.id))!.attemptsMade).toBe(1);
    expect(providers.xero.tokenRequests.filter((t) => t.grantType === 'refresh_token').length).toBe(refreshes + 1);
    const c = card(await list(gw, owner.token), 'xero');
    expect(c).toMatchObject({ is_active: true, needs_reconnect: true });
    await waitFor(
      () => eventsOf('integrations.sync_failed', 'xero').some((e) => (e.data as { reason: string }).reason === 'needs_reconnect'),
      'sync_failed',
    );
    const again = await gw.inject({ method: 'POST', url: '/api/integrations/xero/sync', headers: bearer(owner.token) });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('The connection to Xero has expired or was revoked. Please connect again.');
    // connecting again clears it and keeps the one record
    providers.xero.refreshAnswer = 'ok';
    expect((await connect(gw, owner.token, 'xero')).callback.headers.location).toBe('/integrations?xero=connected');
    expect(card(await list(gw, owner.token), 'xero')).toMatchObject({ is_active: true, needs_reconnect: false });
    expect(await count('client_integrations')).toBe(1);
  });

  it('disconnects: is_active false, the record and its summary kept, the grant revoked at Xero', async () => {
    const refresh = providers.xero.currentRefresh;
    expect(refresh).toBeTruthy();
    const res = await gw.inject({ method: 'POST', url: '/api/integrations/xero/disconnect', headers: bearer(owner.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Integration disconnected' });
    const c = card(await list(gw, owner.token), 'xero');
    expect(c).toMatchObject({ is_active: false, integration_data: { company_name: EXPECTED.xero.company } });
    expect(c.id).not.toBeNull();
    expect(await credentials('xero')).toBeUndefined();
    const rev = providers.xero.revocations.at(-1)!;
    expect(rev.authorization).toBe(`Basic ${Buffer.from('xero-test-client:xero-test-secret').toString('base64')}`);
    expect(rev.contentType).toBe('application/x-www-form-urlencoded');
    await waitFor(() => eventsOf('integrations.disconnected', 'xero').length === 1, 'integrations.disconnected');
    const sync = await gw.inject({ method: 'POST', url: '/api/integrations/xero/sync', headers: bearer(owner.token) });
    expect(sync.statusCode).toBe(409);
    expect(sync.json().error.message).toBe('Xero is not connected.');
  });
});

describe('QuickBooks: connect, sync, refresh, revoked grant, disconnect', () => {
  it('connects with the realm from the callback and the CompanyInfo name (no PKCE)', async () => {
    const r = await connect(gw, owner.token, 'quickbooks');
    const q = r.authUrl.searchParams;
    expect(`${r.authUrl.origin}${r.authUrl.pathname}`).toBe(providers.env.QUICKBOOKS_AUTH_URL);
    expect(q.get('scope')).toBe('com.intuit.quickbooks.accounting');
    expect(q.get('code_challenge')).toBeNull();
    expect(r.callback.headers.location).toBe('/integrations?quickbooks=connected');
    expect((await credentials('quickbooks'))!.external_id).toBe(QB_REALM);
    expect(card(await list(gw, owner.token), 'quickbooks')).toMatchObject({
      is_active: true,
      integration_data: { company_name: EXPECTED.quickbooks.company },
    });
  });

  it('syncs customers, open invoices and bills into the summary', async () => {
    const job = await syncAndWait(gw, owner.token, 'quickbooks');
    expect(job.state).toBe('completed');
    const c = card(await list(gw, owner.token), 'quickbooks');
    expect(c.integration_data).toEqual({ company_name: EXPECTED.quickbooks.company, summary: EXPECTED.quickbooks.summary });
    expect(providers.quickbooks.apiPaths.some((p) => p.includes('/query?query=') && p.includes('minorversion=75'))).toBe(true);
  });

  it('refreshes an expired access token and stores the rotated refresh token', async () => {
    await gw.kit.runtime.pool.query(
      `update integrations.integration_credentials c set access_expires_at = now() - interval '5 minutes'
       from integrations.client_integrations i where i.id = c.integration_id and i.integration_type = 'quickbooks'`,
    );
    const old = providers.quickbooks.currentRefresh;
    expect((await syncAndWait(gw, owner.token, 'quickbooks')).state).toBe('completed');
    expect(providers.quickbooks.tokenRequests.at(-1)).toMatchObject({ grantType: 'refresh_token', refreshToken: old });
    const cred = (await credentials('quickbooks'))!;
    expect(new TokenCipher(gw.key).decrypt(cred.refresh_token_enc, `${cred.integration_id}:refresh`)).toBe(
      providers.quickbooks.currentRefresh,
    );
  });

  it('retries a 5xx with backoff and completes (a 429 waits Intuit’s 60 s: rate-limits.test.ts)', async () => {
    providers.quickbooks.apiFailures = [503];
    const job = await syncAndWait(gw, owner.token, 'quickbooks');
    expect(job.state).toBe('completed');
    expect((await gw.kit.runtime.jobs.status('integrations.sync', job.id))!.attemptsMade).toBe(2);
  });

  it('a revoked grant needs reconnection, with a single attempt', async () => {
    await gw.kit.runtime.pool.query(
      `update integrations.integration_credentials c set access_expires_at = now() - interval '5 minutes'
       from integrations.client_integrations i where i.id = c.integration_id and i.integration_type = 'quickbooks'`,
    );
    providers.quickbooks.refreshAnswer = 'invalid_grant';
    const job = await syncAndWait(gw, owner.token, 'quickbooks');
    expect(job).toMatchObject({ state: 'failed', error: 'The connection to QuickBooks has expired or was revoked. Please connect again.' });
    expect((await gw.kit.runtime.jobs.status('integrations.sync', job.id))!.attemptsMade).toBe(1);
    expect(card(await list(gw, owner.token), 'quickbooks').needs_reconnect).toBe(true);
    providers.quickbooks.refreshAnswer = 'ok';
  });

  it('disconnects and revokes the refresh token at Intuit (JSON body)', async () => {
    expect((await connect(gw, owner.token, 'quickbooks')).callback.headers.location).toBe('/integrations?quickbooks=connected');
    const refresh = providers.quickbooks.currentRefresh;
    const res = await gw.inject({ method: 'POST', url: '/api/integrations/quickbooks/disconnect', headers: bearer(owner.token) });
    expect(res.json()).toEqual({ success: true, message: 'Integration disconnected' });
    expect(providers.quickbooks.revocations.at(-1)).toMatchObject({ token: refresh, contentType: 'application/json' });
    expect(card(await list(gw, owner.token), 'quickbooks')).toMatchObject({ is_active: false });
  });
});

describe('access', () => {
  it('a client never sees or acts on another client’s integration, even with its ids', async () => {
    // the owner connects again, so there is something to guess at
    await connect(gw, owner.token, 'xero');
    const job = await syncAndWait(gw, owner.token, 'xero');
    const mine = card(await list(gw, owner.token), 'xero');

    const other = await makePerson(gw, 'other@rival.co.uk', ['client']);
    const otherClient = (await upsertClient(gw, { userId: other.id, companyName: 'Rival Ltd' })).clientId;
    const theirs = await list(gw, other.token);
    expect(theirs.client!.id).toBe(otherClient);
    expect(theirs.integrations.every((c) => !c.is_active && c.id === null)).toBe(true);
    expect(
      (await gw.inject({ method: 'GET', url: `/api/integrations?client_id=${clientId}`, headers: bearer(other.token) })).statusCode,
    ).toBe(404);
    expect((await gw.inject({ method: 'GET', url: `/api/integrations/jobs/${job.id}`, headers: bearer(other.token) })).statusCode).toBe(
      404,
    );
    expect((await gw.inject({ method: 'POST', url: '/api/integrations/xero/sync', headers: bearer(other.token) })).statusCode).toBe(409);
    expect((await gw.inject({ method: 'POST', url: '/api/integrations/xero/disconnect', headers: bearer(other.token) })).statusCode).toBe(
      404,
    );
    // ids in bodies or paths are not how the actions pick their integration
    const guessed = await gw.inject({
      method: 'POST',
      url: `/api/integrations/${mine.id}/disconnect`,
      headers: bearer(other.token),
    });
    expect(guessed.statusCode).toBe(400);
    expect(card(await list(gw, owner.token), 'xero').is_active).toBe(true);

    // a person with no client record at all
    const stranger = await makePerson(gw, 'stranger@example.co.uk', ['client']);
    const none = await list(gw, stranger.token);
    expect(none.client).toBeNull();
    const c = await gw.inject({ method: 'POST', url: '/api/integrations/xero/connect', headers: bearer(stranger.token) });
    expect(c.statusCode).toBe(409);
    expect(c.json().error.message).toMatch(/business record is not set up yet/);
  });

  it('staff see a client’s summary by client_id; an accountant only their assigned clients; nobody acts for the client', async () => {
    const staff = await makePerson(gw, 'staff@countinghouse.co.uk', ['staff']);
    const l = await list(gw, staff.token, clientId);
    expect(card(l, 'xero')).toMatchObject({ is_active: true, integration_data: { summary: EXPECTED.xero.summary } });
    expect((await gw.inject({ method: 'POST', url: '/api/integrations/xero/sync', headers: bearer(staff.token) })).statusCode).toBe(409);

    const accountant = await makePerson(gw, 'accountant@countinghouse.co.uk', ['accountant']);
    expect(
      (await gw.inject({ method: 'GET', url: `/api/integrations?client_id=${clientId}`, headers: bearer(accountant.token) })).statusCode,
    ).toBe(404);
    await upsertClient(gw, { clientId, userId: owner.id, companyName: 'Acme Bakery Ltd', assignedAccountantId: accountant.id });
    expect(card(await list(gw, accountant.token, clientId), 'xero').is_active).toBe(true);

    const admin = (
      await gw.inject({
        method: 'POST',
        url: '/api/identity/admin/login',
        payload: { username: 'practice.admin', password: 'correct horse battery staple' },
      })
    ).json().session_token as string;
    expect(card(await list(gw, admin, clientId), 'xero').is_active).toBe(true);
  });

  it('anonymous callers are refused everywhere but the callback', async () => {
    for (const [method, url] of [
      ['GET', '/api/integrations'],
      ['POST', '/api/integrations/xero/connect'],
      ['POST', '/api/integrations/xero/sync'],
      ['POST', '/api/integrations/quickbooks/disconnect'],
      ['GET', '/api/integrations/jobs/anything'],
    ] as const) {
      const res = await gw.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    const cb = await gw.inject({ method: 'GET', url: '/api/integrations/quickbooks/callback?code=x&state=y&realmId=1' });
    expect(cb.statusCode).toBe(302);
    expect(cb.headers.location).toBe('/integrations?quickbooks=error');
  });
});

describe('secrets', () => {
  it('no provider token ever appears in an API answer or a log line', async () => {
    const tokens = [...providers.xero.issued, ...providers.quickbooks.issued];
    expect(tokens.length).toBeGreaterThan(10);
    expect(gw.answers.length).toBeGreaterThan(50);
    expect(gw.logs.length).toBeGreaterThan(50);
    const answers = gw.answers.join('\n');
    const logs = gw.logs.join('');
    for (const t of tokens) {
      expect(answers.includes(t), 'a token in an API answer').toBe(false);
      expect(logs.includes(t), 'a token in the log').toBe(false);
    }
    // nor the client secrets, nor a token in plain text in the database
    for (const s of ['xero-test-secret', 'intuit-test-secret']) {
      expect(answers.includes(s)).toBe(false);
      expect(logs.includes(s)).toBe(false);
    }
    const { rows } = await gw.kit.runtime.pool.query(
      `select (select coalesce(string_agg(c::text, ' '), '') from integrations.integration_credentials c) ||
              (select coalesce(string_agg(i::text, ' '), '') from integrations.client_integrations i) ||
              (select coalesce(string_agg(o::text, ' '), '') from integrations.outbox o) as all_rows`,
    );
    for (const t of tokens) expect(rows[0].all_rows.includes(t)).toBe(false);
  });
});
