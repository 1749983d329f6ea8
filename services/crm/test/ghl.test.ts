import { composeAllInOne } from '../../../gateway/src/compose.js';
import { createTestKit, type TestKit } from '@countinghouse/kit/testing';
import { ensureInitialAdmin } from '@countinghouse/identity';
import { CRM_ROUTES, MESSAGES, type Lead } from '@countinghouse/proto';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '@countinghouse/kit';
import { ADMIN } from '../../../gateway/test/helpers.js';
import { GhlClient, GhlError } from '../src/adapters/ghl-client.js';
import { bearer, login, startTestGateway, type TestGateway } from './helpers.js';

/**
 * A local LeadConnector (GoHighLevel API v2) server implementing only POST /contacts/search (the
 * deprecated GET /contacts/ answers 404): body { locationId, pageLimit (≤ 500), page | searchAfter }
 * (never both), answer { contacts: [... each with its searchAfter cursor], total }, 7 contacts in pages
 * of at most 3, Bearer key + Version 2021-07-28 required.
 */
const KEY = 'pit-test-key';
const LOCATION = 'loc_ve9EPM428h8v';
const CONTACTS = [
  {
    id: 'c1',
    contactName: 'Jane Smith',
    firstName: 'Jane',
    lastName: 'Smith',
    email: 'Jane@Smith.co.uk',
    phone: '+447700900001',
    companyName: 'Smith Bakery',
    tags: ['lead', 'website'],
    dateAdded: '2026-01-10T12:00:00.000Z',
  },
  {
    id: 'c2',
    firstName: 'Tom',
    lastName: 'Jones',
    email: 'tom@jones.co.uk',
    phone: null,
    companyName: null,
    tags: [],
    dateAdded: '2026-01-11T12:00:00.000Z',
  },
  {
    id: 'c3',
    contactName: null,
    firstName: null,
    lastName: null,
    email: 'only@email.co.uk',
    tags: ['x'],
    dateAdded: '2026-01-12T12:00:00.000Z',
  },
  {
    id: 'c4',
    contactName: 'Existing Person',
    email: 'existing@lead.co.uk',
    companyName: 'Existing Ltd',
    tags: [],
    dateAdded: '2026-01-13T12:00:00.000Z',
  },
  { id: 'c5', contactName: 'Phone Only', phone: '+447700900005', dateAdded: '2026-01-14T12:00:00.000Z' },
  {
    id: 'c6',
    contactName: 'Sam Six',
    email: 'sam@six.co.uk',
    companyName: 'Six & Co',
    tags: ['vip'],
    dateAdded: '2026-01-15T12:00:00.000Z',
  },
  { id: 'c7', contactName: 'Seven Last', email: 'seven@last.co.uk', dateAdded: 'not a date' },
];

let ghl: FastifyInstance;
let ghlUrl = '';
const seen: Array<{ body: Record<string, unknown>; cursor: string | null; auth?: string; version?: string }> = [];
let mode: 'ok' | '401' | '429-once' | '500-always' | 'no-cursor' = 'ok';
let failedOnce = false;

let gw: TestGateway; // configured against the local server
let kit: TestKit; // a second gateway without a key
let unconfigured: App;
let admin: Record<string, string>;

beforeAll(async () => {
  ghl = Fastify();
  ghl.post('/contacts/search', async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const after = Array.isArray(body.searchAfter) ? String(body.searchAfter[1]) : null;
    seen.push({ body, cursor: after, auth: req.headers.authorization, version: req.headers.version as string | undefined });
    if (mode === '401' || req.headers.authorization !== `Bearer ${KEY}`)
      return reply.status(401).send({ statusCode: 401, message: 'Invalid JWT' });
    const limit = Number(body.pageLimit);
    if (
      req.headers.version !== '2021-07-28' ||
      body.locationId !== LOCATION ||
      !Number.isInteger(limit) ||
      limit < 1 ||
      limit > 500 ||
      (body.page !== undefined && body.searchAfter !== undefined)
    )
      return reply.status(422).send({ statusCode: 422, message: ['bad request'] });
    if (mode === '500-always') return reply.status(502).send({ message: 'bad gateway' });
    if (mode === '429-once' && !failedOnce && after === 'c3') {
      failedOnce = true;
      return reply.status(429).header('retry-after', '1').send({ message: 'Too many requests' });
    }
    const size = Math.min(limit, 3); // our server pages by 3 whatever is asked
    const start = after ? CONTACTS.findIndex((c) => c.id === after) + 1 : (Number(body.page ?? 1) - 1) * size;
    const page = CONTACTS.slice(start, start + size);
    return {
      contacts: page.map((c) => ({
        ...c,
        locationId: LOCATION,
        customFields: [],
        source: 'form',
        ...(mode === 'no-cursor' ? {} : { searchAfter: [Date.parse(c.dateAdded) || 0, c.id] }),
      })),
      total: CONTACTS.length,
    };
  });
  ghlUrl = await ghl.listen({ port: 0, host: '127.0.0.1' });

  gw = await startTestGateway();
  // startTestGateway builds the app without GoHighLevel settings; build one with them on the same database.
  await gw.app.close();
  gw.app = await composeAllInOne({
    runtime: gw.kit.runtime,
    signer: gw.kit.signer,
    logger: pino({ level: 'silent' }),
    frontendDir: null,
    signInMax: 1000,
    publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'T', phone: '0', email: 'a@b.c' } }),
    services: { crm: { ghl: { apiKey: KEY, locationId: LOCATION, baseUrl: ghlUrl } } },
  });
  admin = bearer((await login(gw.app)).json().session_token);

  kit = await createTestKit();
  unconfigured = await composeAllInOne({
    runtime: kit.runtime,
    signer: kit.signer,
    logger: pino({ level: 'silent' }),
    frontendDir: null,
    signInMax: 1000,
    publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'T', phone: '0', email: 'a@b.c' } }),
  });
  await ensureInitialAdmin(kit.runtime.db, ADMIN);
});
afterAll(async () => {
  await gw?.close();
  await unconfigured?.close();
  await kit?.close();
  await ghl?.close();
});

describe('GoHighLevel import', () => {
  it('without a key: config says not configured, import answers 503 NOT_CONFIGURED', async () => {
    const h = bearer((await login(unconfigured)).json().session_token);
    const cfg = await unconfigured.inject({ method: 'GET', url: CRM_ROUTES.ghlConfig, headers: h });
    expect(cfg.json()).toMatchObject({ configured: false, message: expect.stringContaining('not configured') });
    const r = await unconfigured.inject({ method: 'POST', url: CRM_ROUTES.ghlImport, headers: h });
    expect(r.statusCode).toBe(503);
    expect(r.json().error.code).toBe('NOT_CONFIGURED');
    expect(r.json().error.message).toMatch(/not configured/);
  });

  it('pages through every contact (3 pages) and imports them as GoHighLevel leads', async () => {
    // a lead typed in by hand earlier, with the same e-mail as contact c4
    await gw.app.inject({
      method: 'POST',
      url: CRM_ROUTES.leads,
      headers: admin,
      payload: { name: 'Existing', email: 'EXISTING@lead.co.uk', source: 'Referral' },
    });
    expect((await gw.app.inject({ method: 'GET', url: CRM_ROUTES.ghlConfig, headers: admin })).json().configured).toBe(true);
    seen.length = 0;
    const r = await gw.app.inject({ method: 'POST', url: CRM_ROUTES.ghlImport, headers: admin });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ success: true, total: 7, created: 6, updated: 1 });
    expect(MESSAGES.loadedLeads(body.total)).toBe('Loaded 7 leads from a CRM');
    expect(seen).toHaveLength(3);
    expect(seen.map((s) => s.cursor)).toEqual([null, 'c3', 'c6']);
    expect(seen[0]!.body).toEqual({ locationId: LOCATION, pageLimit: 100, page: 1 });
    expect(seen[1]!.body).toEqual({ locationId: LOCATION, pageLimit: 100, searchAfter: [Date.parse('2026-01-12T12:00:00.000Z'), 'c3'] });
    expect(seen.every((s) => s.auth === `Bearer ${KEY}` && s.version === '2021-07-28')).toBe(true);
    // The deprecated list endpoint is not there, and not called.
    expect((await fetch(`${ghlUrl}/contacts/?locationId=${LOCATION}`, { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(404);
    const byExt = new Map((body.leads as Lead[]).map((l) => [l.external_id, l]));
    expect(byExt.get('c1')).toMatchObject({
      name: 'Jane Smith',
      email: 'jane@smith.co.uk',
      phone: '+447700900001',
      company_name: 'Smith Bakery',
      tags: ['lead', 'website'],
      source: 'GoHighLevel',
      stage: 'new_enquiry',
    });
    expect(byExt.get('c1')!.created_at).toBe('2026-01-10T12:00:00.000Z');
    expect(byExt.get('c2')!.name).toBe('Tom Jones');
    expect(byExt.get('c3')!.name).toBe('only@email.co.uk');
    expect(byExt.get('c5')!.name).toBe('Phone Only');
    // the hand-typed lead was matched by e-mail: same row, now linked, its source kept
    expect(byExt.get('c4')).toMatchObject({ name: 'Existing Person', source: 'Referral', company_name: 'Existing Ltd' });
    const cfg = (await gw.app.inject({ method: 'GET', url: CRM_ROUTES.ghlConfig, headers: admin })).json();
    expect(cfg.last_import_total).toBe(7);
  });

  it('importing twice adds no duplicates', async () => {
    const before = (await gw.app.inject({ method: 'GET', url: CRM_ROUTES.leads, headers: admin })).json().total;
    const r = await gw.app.inject({ method: 'POST', url: CRM_ROUTES.ghlImport, headers: admin });
    expect(r.json()).toMatchObject({ success: true, total: 7, created: 0, updated: 7 });
    const after = await gw.app.inject({ method: 'GET', url: `${CRM_ROUTES.leads}?source=GoHighLevel`, headers: admin });
    expect((await gw.app.inject({ method: 'GET', url: CRM_ROUTES.leads, headers: admin })).json().total).toBe(before);
    expect(after.json().total).toBe(6);
    const { rows } = await gw.kit.runtime.pool.query(
      `select count(*)::int n, count(distinct external_id)::int d from crm.leads where external_id is not null`,
    );
    expect(rows[0]).toEqual({ n: 7, d: 7 });
  });

  it('a 429 is retried after Retry-After, then the import succeeds', async () => {
    mode = '429-once';
    failedOnce = false;
    seen.length = 0;
    const t0 = Date.now();
    const r = await gw.app.inject({ method: 'POST', url: CRM_ROUTES.ghlImport, headers: admin });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().total).toBe(7);
    expect(seen.map((s) => s.cursor)).toEqual([null, 'c3', 'c3', 'c6']);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900); // Retry-After: 1
    mode = 'ok';
  });

  it('pages by page number when the answers carry no cursor, and stops at the total', async () => {
    mode = 'no-cursor';
    seen.length = 0;
    const client = new GhlClient({ apiKey: KEY, locationId: LOCATION, baseUrl: ghlUrl, sleep: async () => {} });
    const contacts = await client.fetchAllContacts();
    expect(contacts.map((c) => c.id)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']);
    expect(seen.map((s) => s.body.page)).toEqual([1, 2, 3]);
    mode = 'ok';
  });

  it('a 401 is a clear error and imports nothing', async () => {
    mode = '401';
    const before = (await gw.app.inject({ method: 'GET', url: CRM_ROUTES.leads, headers: admin })).json().total;
    const r = await gw.app.inject({ method: 'POST', url: CRM_ROUTES.ghlImport, headers: admin });
    expect(r.statusCode).toBe(503);
    expect(r.json().error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: 'Failed to fetch leads from GoHighLevel' });
    expect(r.json().error.details[0].message).toMatch(/refused the API key \(401\)/);
    expect((await gw.app.inject({ method: 'GET', url: CRM_ROUTES.leads, headers: admin })).json().total).toBe(before);
    mode = 'ok';
  });

  it('5xx is retried with backoff, then given up clearly', async () => {
    mode = '500-always';
    seen.length = 0;
    const client = new GhlClient({ apiKey: KEY, locationId: LOCATION, baseUrl: ghlUrl, maxRetries: 2, sleep: async () => {} });
    await expect(client.fetchAllContacts()).rejects.toBeInstanceOf(GhlError);
    expect(seen).toHaveLength(3);
    mode = 'ok';
  });
});
