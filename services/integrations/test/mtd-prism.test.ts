import { MTD_TEXTS, TOPICS, type EventEnvelope, type MtdClient } from '@countinghouse/proto';
import { waitFor } from '@countinghouse/kit/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, makePerson, type Person } from '../../../gateway/test/helpers.js';
import { hmrcSettings } from '../src/config.js';
import { SCHEDULES } from '../src/jobs/schedules.js';
import { validateFraudHeaders } from '../src/domain/fraud-headers.js';
import { TokenCipher } from '../src/domain/token-cipher.js';
import { checkPendingAuthorisations, mtdDeps } from '../src/use-cases/mtd.js';
import { authorisationExpiry } from '../src/domain/mtd-rules.js';
import { startIntegrationsGateway, upsertClient, type IntegrationsGateway } from './helpers.js';
import { startPrism, type PrismServer } from './prism.js';

/**
 * MTD for Income Tax against HMRC's own API descriptions (provider-specs/hmrc/prism-compat, one Prism
 * per API as FLOW.md lists them) behind a thin proxy that plays HMRC's OAuth endpoints (not described
 * in any of the files), chooses Prism's documented examples (Prefer: example=...), and records every
 * request: Prism must accept each one (no 400/422, no request violation), and every Income Tax call
 * must carry valid fraud prevention headers.
 */
const COMPAT = '/work/shared/provider-specs/hmrc/prism-compat';
const APIS: Array<{ prefix: string; spec: string }> = [
  { prefix: '/agents/', spec: 'agent-authorisation-api/2.0/application.yaml' },
  { prefix: '/individuals/business/details/', spec: 'business-details-api/2.0/application.yaml' },
  { prefix: '/obligations/', spec: 'obligations-api/3.0/application.yaml' },
  { prefix: '/individuals/business/self-employment/', spec: 'self-employment-business-api/5.0/application.yaml' },
  { prefix: '/individuals/business/property/', spec: 'property-business-api/6.0/application.yaml' },
  { prefix: '/individuals/calculations/', spec: 'individual-calculations-api/9.0/application.yaml' },
];
const NINO = 'TC663795B';
const POSTCODE = 'TF3 4NT';
const ARN = 'AARN9999999';

let prisms: PrismServer[] = [];
let proxy: FastifyInstance;
let gw: IntegrationsGateway;
let manager: Person, staff: Person, accountant: Person, otherAccountant: Person, client: Person, admin: Person;
let clientId = '';
const events: EventEnvelope[] = [];
/** Every request forwarded to Prism and its answer. */
const forwarded: Array<{ method: string; path: string; status: number; headers: Record<string, string>; violations: string }> = [];
const tokenGrants: string[] = [];
let invitationExample = 'pending';
let refuseRefresh = false;
const FINAL_CALCULATION = '9d5e3c1a-7b2f-4c8e-a1d0-3f6b2e4c8a91';

const device = {
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  deviceId: randomUUID(),
  screens: [{ width: 1920, height: 1080, scalingFactor: 1, colourDepth: 24 }],
  windowSize: { width: 1280, height: 800 },
  utcOffsetMinutes: 0,
};

beforeAll(async () => {
  prisms = await Promise.all(APIS.map((a) => startPrism(join(COMPAT, a.spec))));
  proxy = Fastify({ logger: false, forceCloseConnections: true });
  proxy.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) => done(null, body));
  // Bodies pass through as they came (HMRC's bodiless DELETE carries Content-Type: application/json).
  proxy.addContentTypeParser('application/json', { parseAs: 'string' }, (_r, body, done) => done(null, body));
  proxy.get('/oauth/authorize', async (req, reply) => {
    const q = req.query as Record<string, string>;
    const back = new URL(q.redirect_uri!);
    back.searchParams.set('code', 'hmrc-code-1');
    back.searchParams.set('state', q.state!);
    return reply.redirect(back.toString(), 302);
  });
  proxy.post('/oauth/token', async (req, reply) => {
    const form = new URLSearchParams(String(req.body));
    tokenGrants.push(form.get('grant_type') ?? '');
    if (form.get('grant_type') === 'refresh_token' && refuseRefresh) return reply.status(400).send({ error: 'invalid_grant' });
    return {
      access_token: `hmrc-access-${tokenGrants.length}`,
      refresh_token: `hmrc-refresh-${tokenGrants.length}`,
      expires_in: 14400,
      scope: 'x',
    };
  });
  proxy.all('/*', async (req, reply) => {
    const i = APIS.findIndex((a) => req.url.startsWith(a.prefix));
    if (i < 0) return reply.status(404).send({ code: 'MATCHING_RESOURCE_NOT_FOUND' });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
    const path = req.url.split('?')[0]!;
    if (/^\/agents\/[^/]+\/invitations\/[^/]+$/.test(path) && req.method === 'GET') headers.prefer = `example=${invitationExample}`;
    if (path.endsWith('/income-and-expenditure')) headers.prefer = 'example=Cumulative response for TY 2026-27 and after';
    const res = await fetch(`${prisms[i]!.url}${req.url}`, {
      method: req.method,
      headers,
      body: typeof req.body === 'string' && req.body ? req.body : undefined,
    });
    forwarded.push({ method: req.method, path, status: res.status, headers, violations: res.headers.get('sl-violations') ?? '' });
    for (const h of ['location', 'content-type', 'x-correlationid']) {
      const v = res.headers.get(h);
      if (v) reply.header(h, v);
    }
    let text = await res.text();
    // Prism's static example gives every triggered calculation the same id; HMRC gives each its own.
    if (path.endsWith('/trigger/intent-to-finalise'))
      text = text.replace(/"calculationId":\s*"[^"]+"/, `"calculationId":"${FINAL_CALCULATION}"`);
    return reply.status(res.status).send(text || undefined);
  });
  const url = await proxy.listen({ port: 0, host: '127.0.0.1' });
  gw = await startIntegrationsGateway({
    HMRC_CLIENT_ID: 'hmrc-app',
    HMRC_CLIENT_SECRET: 'hmrc-secret',
    HMRC_BASE_URL: url,
    HMRC_VENDOR_PUBLIC_IP: '203.0.113.6',
  });
  admin = await makePerson(gw, 'mtd.admin@practice.co.uk', ['admin']);
  manager = await makePerson(gw, 'mtd.manager@practice.co.uk', ['manager']);
  staff = await makePerson(gw, 'mtd.staff@practice.co.uk', ['staff']);
  accountant = await makePerson(gw, 'mtd.accountant@practice.co.uk', ['accountant']);
  otherAccountant = await makePerson(gw, 'mtd.other@practice.co.uk', ['accountant']);
  client = await makePerson(gw, 'sole.trader@example.co.uk', ['client']);
  clientId = (await upsertClient(gw, { userId: client.id, companyName: 'Jo Sole Trader', assignedAccountantId: accountant.id })).clientId;
  appUrl = await gw.app.listen({ port: 0, host: '127.0.0.1' });
  await gw.kit.runtime.bus.subscribe({
    group: 'test.mtd-events',
    topics: [TOPICS.integrations],
    handler: async (e) => void events.push(e),
  });
  await waitFor(
    async () => (await gw.kit.runtime.pool.query('select 1 from integrations.client_directory where client_id = $1', [clientId])).rowCount,
    'directory',
    10_000,
    25,
  );
}, 300_000);

afterAll(async () => {
  // The mocks first: a gateway that is slow to close must not leave Prism processes behind.
  await Promise.all(prisms.map((p) => p.stop()));
  await proxy?.close();
  await gw?.close();
});

let appUrl = '';
/** Over real HTTP (the client's address and port are part of the fraud prevention headers). */
const api = async (method: 'GET' | 'POST' | 'PUT', url: string, who: Person, payload?: object) => {
  const res = await fetch(`${appUrl}/api/integrations/mtd${url}`, {
    method,
    headers: { ...bearer(who.token), ...(payload ? { 'content-type': 'application/json' } : {}) },
    body: payload ? JSON.stringify(payload) : undefined,
  });
  const body = await res.text();
  gw.answers.push(`${res.status} ${body}`);
  return { statusCode: res.status, body, json: () => JSON.parse(body) };
};
const record = async (who: Person = manager) => {
  const r = await api('GET', `/clients/${clientId}`, who);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as MtdClient;
};

describe('connection', () => {
  it('is configured but not connected; only managers set the ARN and connect', async () => {
    expect((await api('GET', '/connection', staff)).json()).toMatchObject({ configured: true, connected: false, arn: null });
    expect((await api('PUT', '/connection/arn', staff, { arn: ARN })).statusCode).toBe(403);
    expect((await api('PUT', '/connection/arn', manager, { arn: 'not-an-arn' })).statusCode).toBe(400);
    expect((await api('PUT', '/connection/arn', manager, { arn: ARN })).json()).toMatchObject({ arn: ARN });
    expect((await api('POST', '/connect', accountant)).statusCode).toBe(403);
  });

  it('refuses an authorisation before the practice is connected', async () => {
    await api('PUT', `/clients/${clientId}/identifiers`, manager, { nino: NINO, postcode: POSTCODE });
    const r = await api('POST', `/clients/${clientId}/authorisations`, manager, { agentType: 'main' });
    expect(r.statusCode).toBe(409);
    expect(r.json().error.message).toMatch(/not connected to HMRC/);
  });

  it('connects through HMRC’s authorisation code flow; tokens are stored encrypted', async () => {
    const start = await api('POST', '/connect', manager);
    expect(start.statusCode, start.body).toBe(200);
    const authUrl = new URL(start.json().authUrl);
    expect(authUrl.pathname).toBe('/oauth/authorize');
    expect(authUrl.searchParams.get('scope')).toContain('write:sent-invitations');
    expect(authUrl.searchParams.get('scope')).toContain('write:self-assessment');
    const consent = await fetch(authUrl, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    expect(back.pathname).toBe('/api/integrations/mtd/callback');
    const cb = await gw.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(cb.statusCode).toBe(302);
    expect(cb.headers.location).toBe('/work/mtd?hmrc=connected');
    // the state is single use
    expect((await gw.inject({ method: 'GET', url: `${back.pathname}${back.search}` })).headers.location).toBe('/work/mtd?hmrc=error');
    expect((await api('GET', '/connection', staff)).json()).toMatchObject({ connected: true, needsReconnect: false });
    const { rows } = await gw.kit.runtime.pool.query('select access_token_enc, refresh_token_enc from integrations.hmrc_connection');
    expect(rows[0].access_token_enc).toMatch(/^v1\./);
    expect(JSON.stringify(rows)).not.toContain('hmrc-access-');
    expect(JSON.stringify(rows)).not.toContain('hmrc-refresh-');
  });
});

describe('scope', () => {
  it('£31,000 for 2025-26 -> April 2027 list; £29,000 not; £21,000 for 2026-27 -> April 2028 list', async () => {
    const two = (await upsertClient(gw, { userId: null, companyName: 'Under Threshold', assignedAccountantId: accountant.id })).clientId;
    const three = (await upsertClient(gw, { userId: null, companyName: 'Landlord 2028', assignedAccountantId: null })).clientId;
    await waitFor(
      async () => (await gw.kit.runtime.pool.query('select 1 from integrations.client_directory where client_id = $1', [three])).rowCount,
      'dir',
      10_000,
      25,
    );
    expect((await api('POST', `/clients/${clientId}/income`, accountant, { taxYear: '2025-26', amount: 31_000 })).statusCode).toBe(201);
    expect((await api('POST', `/clients/${two}/income`, accountant, { taxYear: '2025-26', amount: 29_000 })).statusCode).toBe(201);
    expect((await api('POST', `/clients/${three}/income`, manager, { taxYear: '2026-27', amount: 21_000 })).statusCode).toBe(201);
    // an accountant records income only for their own clients
    expect((await api('POST', `/clients/${three}/income`, otherAccountant, { taxYear: '2026-27', amount: 1 })).statusCode).toBe(403);
    const o = (await api('GET', '/overview', manager)).json();
    expect(o.scope.april2027).toEqual([clientId]);
    expect(o.scope.april2028).toEqual([three]);
    expect(o.scope.april2027).not.toContain(two);
    expect((await record()).scope.letter).toContain('from 6 April 2027');
    // the accountant sees only the clients assigned to them
    const mine = (await api('GET', '/overview', accountant)).json();
    expect(mine.clients.map((c: { clientId: string }) => c.clientId).sort()).toEqual([clientId, two].sort());
    // an exemption, with its reason, takes a client off the list
    expect((await api('PUT', `/clients/${three}/exemption`, manager, { reason: 'Digitally excluded' })).statusCode).toBe(200);
    expect((await api('GET', '/overview', manager)).json().scope.april2028).toEqual([]);
  });
});

describe('agent authorisation (Agent Authorisation API 2.0)', () => {
  let authId = '';
  it('requests MTD-IT for NINO TC663795B, TF3 4NT: HMRC answers 204 + Location; Pending, expiring in 21 days', async () => {
    const before = forwarded.length;
    const r = await api('POST', `/clients/${clientId}/authorisations`, accountant, { agentType: 'main' });
    expect(r.statusCode, r.body).toBe(201);
    const call = forwarded[before]!;
    expect(call).toMatchObject({ method: 'POST', path: `/agents/${ARN}/invitations`, status: 204 });
    expect(r.json()).toMatchObject({ status: 'Pending', invitationId: 'CS5AK7O8FPC43', expiresOn: authorisationExpiry(new Date()) });
    authId = r.json().id;
    const rec = await record();
    expect(rec.authorisation).toMatchObject({ id: authId, status: 'Pending', expiresOn: authorisationExpiry(new Date()) });
    // supporting agent, refused agent type
    expect((await api('POST', `/clients/${clientId}/authorisations`, accountant, { agentType: 'other' })).statusCode).toBe(400);
  });

  it('reads the status back from HMRC: Pending, with the client’s action link', async () => {
    const r = await api('POST', `/clients/${clientId}/authorisations/${authId}/check`, manager);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ status: 'Pending', expiresOn: authorisationExpiry(new Date()) });
    expect(r.json().clientActionUrl).toMatch(/^https:\/\/www\.tax\.service\.gov\.uk\//);
    expect(forwarded.at(-1)).toMatchObject({ method: 'GET', status: 200 });
  });

  it('checks the relationship (204 -> active)', async () => {
    const r = await api('POST', `/clients/${clientId}/relationship`, manager);
    expect(r.json()).toEqual({ active: true });
  });

  it('cancels a pending request, and resends (a new request) afterwards', async () => {
    const c = await api('POST', `/clients/${clientId}/authorisations/${authId}/cancel`, manager);
    expect(c.statusCode, c.body).toBe(200);
    expect(c.json().status).toBe('Cancelled');
    expect(forwarded.at(-1)).toMatchObject({ method: 'DELETE', status: 204 });
    expect((await api('POST', `/clients/${clientId}/authorisations/${authId}/cancel`, manager)).statusCode).toBe(409);
    const again = await api('POST', `/clients/${clientId}/authorisations`, manager, { agentType: 'supporting' });
    expect(again.statusCode).toBe(201);
    authId = again.json().id;
  });

  it('obligations need an accepted authorisation', async () => {
    const r = await api('POST', `/clients/${clientId}/obligations/refresh`, manager, { device });
    expect(r.statusCode).toBe(409);
    invitationExample = 'responded';
    // the daily job reads every pending request back from HMRC
    const daily = mtdDeps({
      db: gw.kit.runtime.db,
      logger: gw.kit.runtime.logger,
      cipher: new TokenCipher(gw.key),
      settings: hmrcSettings(gw.config, 'http://localhost:3000'),
    });
    expect(await checkPendingAuthorisations(daily)).toEqual({ checked: 1, changed: 1 });
    expect(await checkPendingAuthorisations(daily)).toEqual({ checked: 0, changed: 0 });
    expect(SCHEDULES).toContainEqual({ key: 'integrations.mtd.daily', cron: '45 6 * * *', job: 'integrations.mtd_daily', payload: {} });
    expect((await record()).authorisation?.status).toBe('Accepted');
    expect(
      (await api('GET', '/overview', manager)).json().clients.find((c: { clientId: string }) => c.clientId === clientId),
    ).toMatchObject({
      authorisationStatus: 'Accepted',
    });
  });
});

describe('obligations (Business Details 2.0, Obligations 3.0)', () => {
  it('are read for the authorised client, shown on the record with fulfilled ones done, and published for deadlines', async () => {
    const r = await api('POST', `/clients/${clientId}/obligations/refresh`, accountant, { device });
    expect(r.statusCode, r.body).toBe(200);
    const rec = await record(accountant);
    expect(rec.businesses[0]).toMatchObject({ businessId: 'XAIS12345678910', typeOfBusiness: 'self-employment' });
    const q1 = rec.obligations.find((o) => o.kind === 'quarterly' && o.periodEndDate === '2026-07-05')!;
    expect(q1).toMatchObject({ dueDate: '2026-08-07', status: 'fulfilled', receivedDate: '2026-08-01', overdue: false });
    expect(rec.obligations.some((o) => o.kind === 'final_declaration')).toBe(true);
    const ev = await waitFor(
      async () =>
        events.find((e) => e.type === 'integrations.mtd_obligations_updated' && (e.data as { clientId: string }).clientId === clientId) ??
        null,
      'obligations event',
      10_000,
      25,
    );
    expect((ev.data as { obligations: unknown[] }).obligations).toHaveLength(rec.obligations.length);
    const o = (await api('GET', '/overview', manager)).json();
    expect(
      o.obligations.find((x: { periodEndDate: string; clientId: string }) => x.clientId === clientId && x.periodEndDate === '2026-07-05'),
    ).toMatchObject({
      quarter: 'Q1 2026-27',
      status: 'fulfilled',
    });
  });
});

describe('the daily refresh, made from the MTD page (issue 31, item 5)', () => {
  it('reads again only what is a day old, the person’s own clients only, and counts what is left', async () => {
    const due = (who: Person) => api('POST', '/obligations/refresh-due', who, { device });
    const calls = async () => Number((await gw.kit.runtime.pool.query(`select count(*)::int as n from integrations.hmrc_calls`)).rows[0].n);
    // just read (the test above): nothing is due
    expect((await due(manager)).json()).toEqual({ refreshed: 0, failed: 0, remaining: 0 });
    // a day and an hour later
    await gw.kit.runtime.pool.query(
      `update integrations.mtd_clients set obligations_refreshed_at = now() - interval '25 hours' where client_id = $1`,
      [clientId],
    );
    // another accountant's round does not include this client
    expect((await due(otherAccountant)).json()).toEqual({ refreshed: 0, failed: 0, remaining: 0 });
    const before = await calls();
    const r = await due(accountant);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ refreshed: 1, failed: 0, remaining: 0 });
    // business list, obligations, final declaration obligations
    expect((await calls()) - before).toBe(3);
    const { rows } = await gw.kit.runtime.pool.query(
      `select obligations_refreshed_at > now() - interval '1 minute' as fresh from integrations.mtd_clients where client_id = $1`,
      [clientId],
    );
    expect(rows[0].fresh).toBe(true);
    expect((await due(accountant)).json()).toEqual({ refreshed: 0, failed: 0, remaining: 0 });
    // a client cannot ask
    expect((await due(client)).statusCode).toBe(403);
  });
});

describe('quarterly cumulative update 2026-27 (Self Employment Business 5.0, Individual Calculations 9.0)', () => {
  const figures = {
    businessId: 'XAIS12345678910',
    taxYear: '2026-27',
    periodEndDate: '2026-10-05',
    turnover: 41250.5,
    other: 0,
    expenses: { costOfGoods: 8200, adminCosts: 310.25, carVanTravelExpenses: 1200 },
    device,
  };

  it('shows exactly what will be sent, sends only after confirmation, stores the receipt and the calculation id', async () => {
    const review = await api('POST', `/clients/${clientId}/updates/review`, staff, figures);
    expect(review.statusCode, review.body).toBe(200);
    const { body, reviewHash, path } = review.json();
    expect(path).toBe('/individuals/business/self-employment/{nino}/XAIS12345678910/cumulative/2026-27');
    expect(body.periodDates).toEqual({ periodStartDate: '2026-04-06', periodEndDate: '2026-10-05' });
    expect(body.periodIncome).toEqual({ turnover: 41250.5, other: 0 });
    expect(body.periodExpenses).toMatchObject({ costOfGoods: 8200, adminCosts: 310.25, wagesAndStaffCosts: 0 });
    const sentBefore = forwarded.length;
    // nothing was sent for the review
    expect(forwarded.length).toBe(sentBefore);
    // no confirmation -> refused at the edge; staff may review but not submit
    expect((await api('POST', `/clients/${clientId}/updates`, manager, { ...figures, reviewHash })).statusCode).toBe(400);
    expect((await api('POST', `/clients/${clientId}/updates`, staff, { ...figures, reviewHash, confirmed: true })).statusCode).toBe(403);
    // the figures changed after review
    const changed = await api('POST', `/clients/${clientId}/updates`, manager, { ...figures, turnover: 1, reviewHash, confirmed: true });
    expect(changed.statusCode).toBe(409);
    expect(forwarded.length).toBe(sentBefore);
    // another accountant's client
    expect(
      (await api('POST', `/clients/${clientId}/updates`, otherAccountant, { ...figures, reviewHash, confirmed: true })).statusCode,
    ).toBe(403);
    const sent = await api('POST', `/clients/${clientId}/updates`, accountant, { ...figures, reviewHash, confirmed: true });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ hmrcStatus: 204, taxYear: '2026-27', calculationId: 'f2fb30e5-4ab6-4a29-b3c1-c7264259ff1c' });
    const put = forwarded.find((f) => f.method === 'PUT')!;
    expect(put).toMatchObject({ path: `/individuals/business/self-employment/${NINO}/XAIS12345678910/cumulative/2026-27`, status: 204 });
    expect(forwarded.at(-1)).toMatchObject({
      method: 'POST',
      path: `/individuals/calculations/${NINO}/self-assessment/2026-27/trigger/in-year`,
      status: 202,
    });
    const { rows } = await gw.kit.runtime.pool.query('select body, hmrc_status from integrations.mtd_submissions where client_id = $1', [
      clientId,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].body).toEqual(body);
    expect((await record()).submissions[0]).toMatchObject({ hmrcStatus: 204, calculationId: 'f2fb30e5-4ab6-4a29-b3c1-c7264259ff1c' });
    // its summary, read back from HMRC (the static mock answers its fixed example)
    const calc = await api('POST', `/clients/${clientId}/calculations/f2fb30e5-4ab6-4a29-b3c1-c7264259ff1c`, staff, { device });
    expect(calc.statusCode, calc.body).toBe(200);
    expect(calc.json()).toMatchObject({ calculationId: 'f2fb30e5-4ab6-4a29-b3c1-c7264259ff1c' });
    expect(typeof calc.json().totalIncomeTaxAndNicsDue).toBe('number');
    expect(forwarded.at(-1)).toMatchObject({ method: 'GET', status: 200 });
  });
});

describe('UK property cumulative update 2026-27 (Property Business 6.0): landlords are in MTD too', () => {
  const figures = {
    businessId: 'XPIS12345678901',
    taxYear: '2026-27',
    periodEndDate: '2026-10-05',
    income: { periodAmount: 14400, otherIncome: 120.5 },
    expenses: { repairsAndMaintenance: 860.4, residentialFinancialCost: 2100, professionalFees: -50 },
    device,
  };

  it('shows exactly what will be sent, sends it only as reviewed and confirmed, and keeps the receipt', async () => {
    const review = await api('POST', `/clients/${clientId}/property-updates/review`, staff, figures);
    expect(review.statusCode, review.body).toBe(200);
    const { body, reviewHash, path } = review.json();
    expect(path).toBe('/individuals/business/property/uk/{nino}/XPIS12345678901/cumulative/2026-27');
    expect(body).toEqual({
      fromDate: '2026-04-06',
      toDate: '2026-10-05',
      ukProperty: {
        income: { periodAmount: 14400, premiumsOfLeaseGrant: 0, reversePremiums: 0, otherIncome: 120.5, taxDeducted: 0 },
        expenses: {
          premisesRunningCosts: 0,
          repairsAndMaintenance: 860.4,
          financialCosts: 0,
          professionalFees: -50,
          costOfServices: 0,
          other: 0,
          travelCosts: 0,
          residentialFinancialCost: 2100,
          residentialFinancialCostsCarriedForward: 0,
        },
      },
    });
    // a negative finance cost is refused at the edge (HMRC: zero or more)
    const negative = await api('POST', `/clients/${clientId}/property-updates/review`, staff, {
      ...figures,
      expenses: { residentialFinancialCost: -1 },
    });
    expect(negative.statusCode).toBe(400);
    expect(
      (await api('POST', `/clients/${clientId}/property-updates`, staff, { ...figures, reviewHash, confirmed: true })).statusCode,
    ).toBe(403);
    const changed = await api('POST', `/clients/${clientId}/property-updates`, manager, {
      ...figures,
      income: { periodAmount: 1 },
      reviewHash,
      confirmed: true,
    });
    expect(changed.statusCode).toBe(409);
    const sent = await api('POST', `/clients/${clientId}/property-updates`, manager, { ...figures, reviewHash, confirmed: true });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({
      hmrcStatus: 204,
      businessId: 'XPIS12345678901',
      periodStartDate: '2026-04-06',
      periodEndDate: '2026-10-05',
    });
    const put = forwarded.findLast((f) => f.method === 'PUT')!;
    expect(put).toMatchObject({ path: `/individuals/business/property/uk/${NINO}/XPIS12345678901/cumulative/2026-27`, status: 204 });
    expect(put.headers.accept).toBe('application/vnd.hmrc.6.0+json');
    const { rows } = await gw.kit.runtime.pool.query(`select body from integrations.mtd_submissions where business_id = 'XPIS12345678901'`);
    expect(rows[0].body).toEqual(body);
  });
});

describe('final declaration 2025-26 (Individual Calculations 9.0)', () => {
  it('needs the year to have ended, the intent-to-finalise calculation and the declaration; keeps the receipt and announces it', async () => {
    const calcUrl = `/clients/${clientId}/final-declaration/calculation`;
    const declUrl = `/clients/${clientId}/final-declaration`;
    const early = await api('POST', calcUrl, manager, { taxYear: '2026-27', device });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(MTD_TEXTS.finalTooEarly('2026-27'));
    expect((await api('POST', calcUrl, staff, { taxYear: '2025-26', device })).statusCode).toBe(403);
    // without HMRC's calculation there is nothing to agree to
    const none = await api('POST', declUrl, manager, {
      taxYear: '2025-26',
      calculationId: 'f2fb30e5-4ab6-4a29-b3c1-c7264259ff1c',
      confirmed: true,
      device,
    });
    expect(none.statusCode).toBe(409);
    expect(none.json().error.message).toBe(MTD_TEXTS.finalNeedsCalculation);
    const made = await api('POST', calcUrl, accountant, { taxYear: '2025-26', device });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toEqual({ calculationId: FINAL_CALCULATION });
    expect(forwarded.at(-1)).toMatchObject({ method: 'POST', status: 202 });
    const shown = await api('POST', `/clients/${clientId}/calculations/${FINAL_CALCULATION}`, accountant, { device });
    expect(shown.statusCode, shown.body).toBe(200);
    // the agent's confirmation of HMRC's declaration is required at the edge
    expect((await api('POST', declUrl, accountant, { taxYear: '2025-26', calculationId: FINAL_CALCULATION, device })).statusCode).toBe(400);
    const declared = await api('POST', declUrl, accountant, {
      taxYear: '2025-26',
      calculationId: FINAL_CALCULATION,
      confirmed: true,
      device,
    });
    expect(declared.statusCode, declared.body).toBe(201);
    expect(declared.json()).toMatchObject({ taxYear: '2025-26', calculationId: FINAL_CALCULATION, hmrcStatus: 204 });
    expect(forwarded.at(-1)).toMatchObject({
      method: 'POST',
      path: `/individuals/calculations/${NINO}/self-assessment/2025-26/${FINAL_CALCULATION}/final-declaration`,
      status: 204,
    });
    expect((await record(accountant)).finalDeclarations).toEqual([expect.objectContaining({ taxYear: '2025-26', hmrcStatus: 204 })]);
    await waitFor(
      async () =>
        events.find(
          (e) => e.type === 'integrations.mtd_final_declaration_submitted' && (e.data as { clientId: string }).clientId === clientId,
        ) ?? null,
      'final declaration event',
      10_000,
      25,
    );
  });
});

describe('every request', () => {
  it('passed Prism’s validation of HMRC’s description (no 400/422, no request violation)', () => {
    expect(forwarded.length).toBeGreaterThanOrEqual(10);
    for (const f of forwarded) {
      expect(f.status, `${f.method} ${f.path}`).toBeLessThan(300);
      expect(f.violations.includes('"location":["request"'), `${f.method} ${f.path}: ${f.violations}`).toBe(false);
    }
  });

  it('to an Income Tax API carried valid fraud prevention headers; the validator fails one without them', () => {
    const itsa = forwarded.filter((f) => !f.path.startsWith('/agents/'));
    expect(itsa.length).toBeGreaterThanOrEqual(5);
    for (const f of itsa) expect(validateFraudHeaders(f.headers), `${f.method} ${f.path}`).toEqual([]);
    const agents = forwarded.find((f) => f.path.startsWith('/agents/'))!;
    expect(validateFraudHeaders(agents.headers)).toHaveLength(16);
  });

  it('is recorded (method, masked path, status, correlation id), and no NINO or token reaches the logs', async () => {
    const { rows } = await gw.kit.runtime.pool.query('select method, path, status from integrations.hmrc_calls order by id');
    expect(rows.length).toBeGreaterThanOrEqual(forwarded.length);
    expect(
      rows.some((r) => r.path === '/individuals/business/self-employment/{nino}/XAIS12345678910/cumulative/2026-27' && r.status === 204),
    ).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(NINO);
    const logs = gw.logs.join('\n');
    expect(logs).toContain('hmrc call');
    expect(logs).not.toContain(NINO);
    expect(logs).not.toContain('TF3 4NT');
    expect(logs).not.toContain('hmrc-access-');
  });
});

describe('refresh and reconnect', () => {
  it('refreshes an expiring token, and asks to reconnect when HMRC refuses the refresh', async () => {
    await gw.kit.runtime.pool.query(`update integrations.hmrc_connection set access_expires_at = now() - interval '1 minute'`);
    const ok = await api('POST', `/clients/${clientId}/relationship`, manager);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(tokenGrants.at(-1)).toBe('refresh_token');
    refuseRefresh = true;
    await gw.kit.runtime.pool.query(`update integrations.hmrc_connection set access_expires_at = now() - interval '1 minute'`);
    const refused = await api('POST', `/clients/${clientId}/relationship`, manager);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/reconnect to HMRC/i);
    expect((await api('GET', '/connection', staff)).json()).toMatchObject({ connected: false, needsReconnect: true });
  });
});

describe('who may', () => {
  it('a client and another accountant are refused; admin, manager and staff see the record', async () => {
    expect((await api('GET', `/clients/${clientId}`, client)).statusCode).toBe(403);
    expect((await api('GET', '/overview', client)).statusCode).toBe(403);
    expect((await api('GET', `/clients/${clientId}`, otherAccountant)).statusCode).toBe(403);
    for (const p of [admin, manager, staff, accountant]) expect((await api('GET', `/clients/${clientId}`, p)).statusCode).toBe(200);
    expect((await api('GET', `/clients/${randomUUID()}`, manager)).statusCode).toBe(404);
  });
});
