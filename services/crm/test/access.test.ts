import { CRM_ROUTES } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceRole, bearer, login, makePerson, startTestGateway, type TestGateway } from './helpers.js';

/** Every crm endpoint as each kind of caller: allowed (2xx, or a 4xx about the input) or denied (401/403). */
let gw: TestGateway;
const tokens: Record<string, string | null> = {};
let accountantId = '';
let clientUserId = '';
const ids = { client: '', otherClient: '', lead: '', task: '', otherTask: '', upgrade: '', communication: '' };

type Caller = 'anonymous' | 'client' | 'accountant' | 'staff' | 'manager' | 'admin' | 'adminSession';
const ALL: Caller[] = ['anonymous', 'client', 'accountant', 'staff', 'manager', 'admin', 'adminSession'];
const STAFF: Caller[] = ['staff', 'manager', 'admin', 'adminSession'];
const STAFF_ACC: Caller[] = [...STAFF, 'accountant'];

beforeAll(async () => {
  gw = await startTestGateway();
  tokens.anonymous = null;
  const client = await makePerson(gw, 'c.client@x.co.uk', ['client']);
  clientUserId = client.id;
  tokens.client = client.token;
  const acc = await makePerson(gw, 'c.acc@x.co.uk', ['accountant']);
  accountantId = acc.id;
  tokens.accountant = acc.token;
  tokens.staff = (await makePerson(gw, 'c.staff@x.co.uk', ['staff'])).token;
  tokens.manager = (await makePerson(gw, 'c.manager@x.co.uk', ['manager'])).token;
  tokens.admin = (await makePerson(gw, 'c.admin@x.co.uk', ['admin'])).token;
  tokens.adminSession = (await login(gw.app)).json().session_token;
  await announceRole(gw, accountantId, 'accountant', true, 'Acc Person');
  const h = bearer(tokens.adminSession!);
  const post = async (url: string, payload: object) =>
    (await gw.app.inject({ method: 'POST', url, headers: h, payload })).json().id as string;
  ids.client = await post(CRM_ROUTES.clients, {
    company_name: 'Mine Ltd',
    contact_email: 'c.client@x.co.uk',
    user_id: clientUserId,
    assigned_accountant_id: accountantId,
  });
  ids.otherClient = await post(CRM_ROUTES.clients, { company_name: 'Other Ltd', contact_email: 'o@x.co.uk' });
  ids.lead = await post(CRM_ROUTES.leads, { name: 'L', email: 'l@x.co.uk' });
  ids.task = await post(CRM_ROUTES.tasks, { title: 'Mine task', client_id: ids.client });
  ids.otherTask = await post(CRM_ROUTES.tasks, { title: 'Other task', client_id: ids.otherClient });
  ids.upgrade = await post(CRM_ROUTES.upgrades, { client_id: ids.otherClient, to_package: 'Scale' });
  ids.communication = await post(CRM_ROUTES.communications, {
    client_id: ids.otherClient,
    channel: 'email',
    direction: 'inbound',
    subject: 'Hi',
  });
});
afterAll(async () => {
  await gw?.close();
});

const n = () => Math.random().toString(36).slice(2, 8);
const endpoints: Array<{ name: string; method: 'GET' | 'POST' | 'PATCH'; url: () => string; body?: () => object; allowed: Caller[] }> = [
  { name: 'GET /clients', method: 'GET', url: () => CRM_ROUTES.clients, allowed: STAFF_ACC },
  {
    name: 'GET /clients/mine',
    method: 'GET',
    url: () => CRM_ROUTES.myClient,
    allowed: ['client', 'accountant', 'staff', 'manager', 'admin', 'adminSession'],
  },
  {
    name: 'PATCH /clients/mine',
    method: 'PATCH',
    url: () => CRM_ROUTES.myClient,
    body: () => ({ employees_count: 1 }),
    allowed: ['client'],
  },
  { name: 'GET /clients/:id', method: 'GET', url: () => CRM_ROUTES.client(ids.client), allowed: STAFF_ACC },
  {
    name: 'POST /clients',
    method: 'POST',
    url: () => CRM_ROUTES.clients,
    body: () => ({ company_name: 'N', contact_email: `${n()}@x.co.uk` }),
    allowed: STAFF,
  },
  {
    name: 'PATCH /clients/:id',
    method: 'PATCH',
    url: () => CRM_ROUTES.client(ids.otherClient),
    body: () => ({ employees_count: 2 }),
    allowed: STAFF,
  },
  { name: 'GET /leads', method: 'GET', url: () => CRM_ROUTES.leads, allowed: STAFF },
  { name: 'GET /leads/:id', method: 'GET', url: () => CRM_ROUTES.lead(ids.lead), allowed: STAFF },
  {
    name: 'POST /leads',
    method: 'POST',
    url: () => CRM_ROUTES.leads,
    body: () => ({ name: 'N', email: `${n()}@x.co.uk` }),
    allowed: STAFF,
  },
  { name: 'PATCH /leads/:id', method: 'PATCH', url: () => CRM_ROUTES.lead(ids.lead), body: () => ({ stage: 'qualified' }), allowed: STAFF },
  { name: 'POST /leads/:id/convert', method: 'POST', url: () => CRM_ROUTES.convertLead(ids.lead), body: () => ({}), allowed: STAFF },
  { name: 'GET /tasks', method: 'GET', url: () => CRM_ROUTES.tasks, allowed: STAFF_ACC },
  { name: 'GET /tasks/:id', method: 'GET', url: () => CRM_ROUTES.task(ids.task), allowed: STAFF_ACC },
  { name: 'POST /tasks', method: 'POST', url: () => CRM_ROUTES.tasks, body: () => ({ title: 'T' }), allowed: STAFF },
  { name: 'PATCH /tasks/:id', method: 'PATCH', url: () => CRM_ROUTES.task(ids.task), body: () => ({ priority: 'high' }), allowed: STAFF },
  { name: 'GET /upgrades', method: 'GET', url: () => CRM_ROUTES.upgrades, allowed: STAFF },
  { name: 'GET /upgrades/:id', method: 'GET', url: () => CRM_ROUTES.upgrade(ids.upgrade), allowed: STAFF },
  {
    name: 'POST /upgrades',
    method: 'POST',
    url: () => CRM_ROUTES.upgrades,
    body: () => ({ client_id: ids.client, to_package: 'Growth' }),
    allowed: STAFF,
  },
  {
    name: 'PATCH /upgrades/:id',
    method: 'PATCH',
    url: () => CRM_ROUTES.upgrade(ids.upgrade),
    body: () => ({ notes: 'ok' }),
    allowed: STAFF,
  },
  { name: 'GET /communications', method: 'GET', url: () => CRM_ROUTES.communications, allowed: STAFF },
  { name: 'GET /communications/:id', method: 'GET', url: () => CRM_ROUTES.communication(ids.communication), allowed: STAFF },
  {
    name: 'POST /communications',
    method: 'POST',
    url: () => CRM_ROUTES.communications,
    body: () => ({ client_id: ids.client, channel: 'phone', direction: 'outbound', subject: 'S' }),
    allowed: STAFF,
  },
  { name: 'GET /stats', method: 'GET', url: () => CRM_ROUTES.stats, allowed: STAFF },
  { name: 'GET /sidebar-counts', method: 'GET', url: () => CRM_ROUTES.sidebarCounts, allowed: STAFF },
  { name: 'GET /search', method: 'GET', url: () => `${CRM_ROUTES.search}?q=ltd`, allowed: STAFF_ACC },
  { name: 'GET /team-members', method: 'GET', url: () => CRM_ROUTES.teamMembers, allowed: STAFF },
  { name: 'GET /ghl/config', method: 'GET', url: () => CRM_ROUTES.ghlConfig, allowed: STAFF },
  { name: 'POST /ghl/import', method: 'POST', url: () => CRM_ROUTES.ghlImport, allowed: STAFF },
];

describe('crm access matrix', () => {
  for (const ep of endpoints) {
    for (const caller of ALL) {
      const allowed = ep.allowed.includes(caller);
      it(`${ep.name} as ${caller}: ${allowed ? 'allowed' : 'denied'}`, async () => {
        const t = tokens[caller];
        const r = await gw.app.inject({ method: ep.method, url: ep.url(), headers: t ? bearer(t) : {}, payload: ep.body?.() });
        // 503: the GoHighLevel import without a key (not configured) is still "let in"
        if (allowed) expect([200, 201, 404, 409, 503], r.body).toContain(r.statusCode);
        else {
          expect(caller === 'anonymous' ? [401] : [401, 403], r.body).toContain(r.statusCode);
          expect(r.json().error.code).toMatch(/UNAUTHENTICATED|FORBIDDEN/);
        }
      });
    }
  }
});

describe('what an accountant and a client see', () => {
  it('an accountant lists only their clients and tasks, and cannot open another client', async () => {
    const h = bearer(tokens.accountant!);
    const list = (await gw.app.inject({ method: 'GET', url: CRM_ROUTES.clients, headers: h })).json();
    expect(list.clients.map((c: { company_name: string }) => c.company_name)).toEqual(['Mine Ltd']);
    expect(list.total).toBe(1);
    expect((await gw.app.inject({ method: 'GET', url: `${CRM_ROUTES.clients}?status=pending`, headers: h })).json().total).toBe(1);
    expect((await gw.app.inject({ method: 'GET', url: CRM_ROUTES.client(ids.otherClient), headers: h })).statusCode).toBe(404);
    const tasks = (await gw.app.inject({ method: 'GET', url: CRM_ROUTES.tasks, headers: h })).json();
    expect(tasks.tasks.map((t: { title: string }) => t.title)).toEqual(['Mine task']);
    expect((await gw.app.inject({ method: 'GET', url: CRM_ROUTES.task(ids.otherTask), headers: h })).statusCode).toBe(404);
    const s = (await gw.app.inject({ method: 'GET', url: `${CRM_ROUTES.search}?q=ltd`, headers: h })).json();
    expect(s.clients.map((c: { company_name: string }) => c.company_name)).toEqual(['Mine Ltd']);
    expect(s.leads).toEqual([]);
  });

  it('a client reads only their own record', async () => {
    const h = bearer(tokens.client!);
    const mine = await gw.app.inject({ method: 'GET', url: CRM_ROUTES.myClient, headers: h });
    expect(mine.json().id).toBe(ids.client);
    expect((await gw.app.inject({ method: 'GET', url: CRM_ROUTES.client(ids.client), headers: h })).statusCode).toBe(403);
    const staffMine = await gw.app.inject({ method: 'GET', url: CRM_ROUTES.myClient, headers: bearer(tokens.staff!) });
    expect(staffMine.statusCode).toBe(404);
  });
});
