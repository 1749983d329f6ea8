import { makeEnvelope } from '@countinghouse/kit';
import { CRM_ROUTES, TOPICS, type Client, type EventEnvelope } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceRole, bearer, login, makePerson, startTestGateway, type TestGateway } from './helpers.js';

let gw: TestGateway;
let admin: Record<string, string>;
let accountantId = '';
const published: EventEnvelope[] = [];

// The hand-computed fixture: every package, an unknown one (50) and none (50), every status.
const FIXTURE = [
  { company_name: 'Alder Sole Trader', package_name: 'Sole Trader Package', subscription_status: 'active', fee: 40 },
  { company_name: 'Birch Partners', package_name: 'Partnership Package', subscription_status: 'pending', fee: 50 },
  { company_name: 'Cedar Starter Ltd', package_name: 'Limited Company Starter', subscription_status: 'active', fee: 50 },
  { company_name: 'Damson Growth Ltd', package_name: 'Growth', subscription_status: 'cancelled', fee: 100 },
  { company_name: 'Elm Scale Ltd', package_name: 'Scale', subscription_status: 'overdue', fee: 150 },
  { company_name: 'Fir Professional Ltd', package_name: 'Professional', subscription_status: 'active', fee: 200 },
  { company_name: 'Gorse Enterprise plc', package_name: 'Enterprise', subscription_status: 'pending', fee: 300 },
  { company_name: 'Hazel Mystery Ltd', package_name: 'Mystery Plan', subscription_status: 'active', fee: 50 },
  { company_name: 'Ivy No Package', package_name: null, subscription_status: 'cancelled', fee: 50 },
] as const;
const ids: Record<string, string> = {};

async function stats() {
  const r = await gw.app.inject({ method: 'GET', url: CRM_ROUTES.stats, headers: admin });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
}

beforeAll(async () => {
  gw = await startTestGateway();
  await gw.kit.runtime.bus.subscribe({ group: 'test.crm', topics: [TOPICS.crm], handler: async (e) => void published.push(e) });
  admin = bearer((await login(gw.app)).json().session_token);
  accountantId = (await makePerson(gw, 'ada.accountant@practice.co.uk', ['accountant'])).id;
  await announceRole(gw, accountantId, 'accountant', true, 'Ada Lovelace');
  let i = 0;
  for (const f of FIXTURE) {
    const r = await gw.app.inject({
      method: 'POST',
      url: CRM_ROUTES.clients,
      headers: admin,
      payload: {
        company_name: f.company_name,
        contact_email: `Contact${i}@${f.company_name.split(' ')[0]!.toLowerCase()}.co.uk`,
        contact_name: `Contact Person ${i}`,
        package_name: f.package_name,
        subscription_status: f.subscription_status,
        registration_date: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
        ...(i === 0 ? { assigned_accountant_id: accountantId } : {}),
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    ids[f.company_name] = r.json().id;
    i++;
  }
});
afterAll(async () => {
  await gw?.close();
});

describe('clients: fees, revenue and counts against the hand-computed fixture', () => {
  it('each fee follows its package; unknown and missing packages cost 50', async () => {
    for (const f of FIXTURE) {
      const r = await gw.app.inject({ method: 'GET', url: CRM_ROUTES.client(ids[f.company_name]!), headers: admin });
      expect(r.json().monthly_fee, f.company_name).toBe(f.fee);
    }
  });

  it('stats: totals, active, revenue over all clients, active plans, team, leads', async () => {
    expect(await stats()).toEqual({
      total_clients: 9,
      active_clients: 4,
      monthly_revenue: 990, // 40+50+50+100+150+200+300+50+50
      active_monthly_revenue: 340, // 40+50+200+50
      active_plans: 4,
      team_members: 1,
      total_leads: 0,
      new_leads: 0,
    });
  });

  it('the counters follow status and package changes', async () => {
    const r1 = await gw.app.inject({
      method: 'PATCH',
      url: CRM_ROUTES.client(ids['Birch Partners']!),
      headers: admin,
      payload: { subscription_status: 'active' },
    });
    expect(r1.statusCode, r1.body).toBe(200);
    const r2 = await gw.app.inject({
      method: 'PATCH',
      url: CRM_ROUTES.client(ids['Damson Growth Ltd']!),
      headers: admin,
      payload: { package_name: 'Enterprise' },
    });
    expect(r2.json().monthly_fee).toBe(300);
    const s = await stats();
    expect(s).toMatchObject({ total_clients: 9, active_clients: 5, monthly_revenue: 1190, active_monthly_revenue: 390, active_plans: 5 });
    // and back, so later tests see the fixture
    await gw.app.inject({
      method: 'PATCH',
      url: CRM_ROUTES.client(ids['Birch Partners']!),
      headers: admin,
      payload: { subscription_status: 'pending' },
    });
    await gw.app.inject({
      method: 'PATCH',
      url: CRM_ROUTES.client(ids['Damson Growth Ltd']!),
      headers: admin,
      payload: { package_name: 'Growth' },
    });
    expect(await stats()).toMatchObject({ active_clients: 4, monthly_revenue: 990 });
  });

  it('the counters agree with a full count of the table', async () => {
    const { rows } = await gw.kit.runtime.pool.query(
      `select count(*)::int n, count(*) filter (where subscription_status = 'active')::int a, sum(monthly_fee)::float r from crm.clients`,
    );
    const s = await stats();
    expect([s.total_clients, s.active_clients, s.monthly_revenue]).toEqual([rows[0].n, rows[0].a, rows[0].r]);
  });

  it('sidebar counts', async () => {
    const r = await gw.app.inject({ method: 'GET', url: CRM_ROUTES.sidebarCounts, headers: admin });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ clients: 9 });
  });
});

describe('client list: filters, search, paging, order', () => {
  const list = async (qs: string) => {
    const r = await gw.app.inject({ method: 'GET', url: `${CRM_ROUTES.clients}?${qs}`, headers: admin });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as { clients: Client[]; total: number };
  };

  it('status filter', async () => {
    for (const [status, n] of [
      ['active', 4],
      ['pending', 2],
      ['cancelled', 2],
      ['overdue', 1],
    ] as const) {
      const r = await list(`status=${status}`);
      expect(r.total, status).toBe(n);
      expect(r.clients.every((c) => c.subscription_status === status)).toBe(true);
    }
  });

  it('package filter: Starter means Limited Company Starter', async () => {
    expect((await list('package=Starter')).clients.map((c) => c.company_name)).toEqual(['Cedar Starter Ltd']);
    for (const p of ['Growth', 'Scale', 'Professional', 'Enterprise']) {
      const r = await list(`package=${p}`);
      expect(r.total, p).toBe(1);
      expect(r.clients[0]!.package_name).toBe(p);
    }
    const bad = await gw.app.inject({ method: 'GET', url: `${CRM_ROUTES.clients}?package=Gold`, headers: admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('both filters together', async () => {
    expect((await list('status=active&package=Professional')).total).toBe(1);
    expect((await list('status=pending&package=Professional')).total).toBe(0);
  });

  it('search is case-insensitive on company name, contact e-mail and contact name', async () => {
    expect((await list('search=cEdAr%20STARTER')).clients.map((c) => c.company_name)).toEqual(['Cedar Starter Ltd']);
    expect((await list('search=CONTACT5%40FIR')).clients.map((c) => c.company_name)).toEqual(['Fir Professional Ltd']);
    expect((await list('search=contact%20person%207')).clients.map((c) => c.company_name)).toEqual(['Hazel Mystery Ltd']);
    expect((await list('search=contact%20person')).total).toBe(9);
    expect((await list('search=nobody-here')).total).toBe(0);
    // LIKE wildcards are text, not patterns
    expect((await list('search=%25')).total).toBe(0);
    expect((await list('search=Ltd&status=active')).total).toBe(3);
  });

  it('pages newest first by created_at, or by registration_date', async () => {
    const p1 = await list('page=1&page_size=4&sort=registration_date');
    const p3 = await list('page=3&page_size=4&sort=registration_date');
    expect(p1.total).toBe(9);
    expect(p1.clients.map((c) => c.company_name)).toEqual([
      'Ivy No Package',
      'Hazel Mystery Ltd',
      'Gorse Enterprise plc',
      'Fir Professional Ltd',
    ]);
    expect(p3.clients.map((c) => c.company_name)).toEqual(['Alder Sole Trader']);
    const byCreated = await list('page_size=200');
    const created = byCreated.clients.map((c) => c.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    expect((await gw.app.inject({ method: 'GET', url: `${CRM_ROUTES.clients}?page_size=201`, headers: admin })).statusCode).toBe(400);
    expect((await gw.app.inject({ method: 'GET', url: `${CRM_ROUTES.clients}?page=0`, headers: admin })).statusCode).toBe(400);
  });

  it("shows the accountant's name", async () => {
    const c = (await list('search=alder')).clients[0]!;
    expect(c.assigned_accountant_id).toBe(accountantId);
    expect(c.assigned_accountant_name).toBe('Ada Lovelace');
  });
});

describe('client create and update: validation, nothing half-written, the event', () => {
  it('refuses bad input with 400 and the error shape, and writes nothing', async () => {
    const before = (await stats()).total_clients;
    const outboxBefore = (await gw.kit.runtime.pool.query('select count(*)::int n from crm.outbox')).rows[0].n;
    const bad: object[] = [
      {},
      { company_name: 'X' },
      { company_name: '', contact_email: 'a@b.co' },
      { company_name: 'X', contact_email: 'not-an-email' },
      { company_name: 'X', contact_email: 'a@b.co', subscription_status: 'lapsed' },
      { company_name: 'X', contact_email: 'a@b.co', business_type: 'charity' },
      { company_name: 'X', contact_email: 'a@b.co', employees_count: -1 },
      { company_name: 'X', contact_email: 'a@b.co', employees_count: '3' },
      { company_name: 'X', contact_email: 'a@b.co', monthly_fee: 1 },
      { company_name: 'X', contact_email: 'a@b.co', next_billing_date: '31/12/2026' },
      { company_name: 'X', contact_email: 'a@b.co', user_id: 'nope' },
      { company_name: 'X', contact_email: 'a@b.co', assigned_accountant_id: '00000000-0000-4000-8000-000000000000' },
    ];
    for (const payload of bad) {
      const r = await gw.app.inject({ method: 'POST', url: CRM_ROUTES.clients, headers: admin, payload });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.any(String) });
    }
    const badPatch = [{}, { subscription_status: 'x' }, { contact_email: 'x' }, { company_name: '' }];
    for (const payload of badPatch) {
      const r = await gw.app.inject({ method: 'PATCH', url: CRM_ROUTES.client(ids['Elm Scale Ltd']!), headers: admin, payload });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const nf = await gw.app.inject({
      method: 'PATCH',
      url: CRM_ROUTES.client('00000000-0000-4000-8000-000000000000'),
      headers: admin,
      payload: { company_name: 'Y' },
    });
    expect(nf.statusCode).toBe(404);
    expect(nf.json().error).toEqual({ code: 'NOT_FOUND', message: 'Client not found' });
    expect((await gw.app.inject({ method: 'GET', url: CRM_ROUTES.client('not-a-uuid'), headers: admin })).statusCode).toBe(400);
    expect((await stats()).total_clients).toBe(before);
    expect((await gw.kit.runtime.pool.query('select count(*)::int n from crm.outbox')).rows[0].n).toBe(outboxBefore);
  });

  it('a second client for the same user account is a 409', async () => {
    const person = await makePerson(gw, 'owner@dup.co.uk', ['client']);
    const a = await gw.app.inject({
      method: 'POST',
      url: CRM_ROUTES.clients,
      headers: admin,
      payload: { company_name: 'Dup One', contact_email: 'owner@dup.co.uk', user_id: person.id },
    });
    expect(a.statusCode).toBe(201);
    const b = await gw.app.inject({
      method: 'POST',
      url: CRM_ROUTES.clients,
      headers: admin,
      payload: { company_name: 'Dup Two', contact_email: 'owner@dup.co.uk', user_id: person.id },
    });
    expect(b.statusCode).toBe(409);
    expect(b.json().error.code).toBe('CONFLICT');
    // the client reads their own record, and only that
    const mine = await gw.app.inject({ method: 'GET', url: CRM_ROUTES.myClient, headers: bearer(person.token) });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().company_name).toBe('Dup One');
    await gw.app.inject({
      method: 'PATCH',
      url: CRM_ROUTES.client(a.json().id),
      headers: admin,
      payload: { subscription_status: 'cancelled' },
    });
  });

  it('publishes crm.client_upserted for a create and an update', async () => {
    const r = await gw.app.inject({
      method: 'POST',
      url: CRM_ROUTES.clients,
      headers: admin,
      payload: { company_name: 'Event Co Ltd', contact_email: 'EVENTS@eventco.co.uk', package_name: 'Scale' },
    });
    const id = r.json().id;
    await gw.app.inject({ method: 'PATCH', url: CRM_ROUTES.client(id), headers: admin, payload: { company_name: 'Event Company Ltd' } });
    const until = Date.now() + 5000;
    while (published.filter((e) => (e.data as { clientId: string }).clientId === id).length < 2 && Date.now() < until)
      await new Promise((res) => setTimeout(res, 50));
    const mine = published.filter((e) => (e.data as { clientId: string }).clientId === id);
    expect(mine.map((e) => e.type)).toEqual(['crm.client_upserted', 'crm.client_upserted']);
    expect(mine[0]!.data).toEqual({
      clientId: id,
      userId: null,
      companyName: 'Event Co Ltd',
      contactName: null,
      contactEmail: 'events@eventco.co.uk',
      // issue 34: the phone travels too, so the audit trail can name a change of it
      contactPhone: null,
      packageName: 'Scale',
      monthlyFee: 150,
      subscriptionStatus: 'pending',
      assignedAccountantId: null,
      businessType: 'limited',
    });
    expect((mine[1]!.data as { companyName: string }).companyName).toBe('Event Company Ltd');
    await gw.app.inject({ method: 'PATCH', url: CRM_ROUTES.client(id), headers: admin, payload: { subscription_status: 'cancelled' } });
  });
});

describe('team members read model', () => {
  it('counts active staff from role_changed events, newest wins, redelivery is harmless', async () => {
    const before = (await stats()).team_members;
    const u = '11111111-1111-4111-8111-111111111111';
    const e1 = await announceRole(gw, u, 'staff', true, 'Sam Staff');
    await gw.kit.runtime.bus.publish(TOPICS.identity, [{ key: u, envelope: e1 }]); // the same event again
    expect((await stats()).team_members).toBe(before + 1);
    await announceRole(gw, u, 'manager', true, 'Sam Staff');
    expect((await stats()).team_members).toBe(before + 1); // one person, two roles
    const off = makeEnvelope(
      'identity.role_changed',
      { userId: u, role: 'staff', isActive: false, email: 's@p.co.uk', name: 'Sam' },
      {
        kind: 'system',
        id: null,
      },
    );
    await gw.kit.runtime.bus.publish(TOPICS.identity, [{ key: u, envelope: off }]);
    await announceRole(gw, u, 'manager', false);
    expect((await stats()).team_members).toBe(before);
    // an older event does not undo a newer one
    const stale = { ...e1, id: '22222222-2222-4222-8222-222222222222', occurredAt: new Date(Date.now() - 3600_000).toISOString() };
    await gw.kit.runtime.bus.publish(TOPICS.identity, [{ key: u, envelope: stale }]);
    expect((await stats()).team_members).toBe(before);
    // clients are not team members
    await announceRole(gw, '33333333-3333-4333-8333-333333333333', 'client', true);
    expect((await stats()).team_members).toBe(before);
    const list = await gw.app.inject({ method: 'GET', url: `${CRM_ROUTES.teamMembers}?role=accountant`, headers: admin });
    expect(list.json().members.map((m: { name: string }) => m.name)).toEqual(['Ada Lovelace']);
  });
});
