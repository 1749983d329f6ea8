import { CRM_ROUTES, LEAD_STAGES, TOPICS, type EventEnvelope, type Lead } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceRole, bearer, login, startTestGateway, type TestGateway } from './helpers.js';

let gw: TestGateway;
let admin: Record<string, string>;
const published: EventEnvelope[] = [];
const staffId = '44444444-4444-4444-8444-444444444444';

const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => gw.app.inject({ method, url, headers: admin, payload });

beforeAll(async () => {
  gw = await startTestGateway();
  await gw.kit.runtime.bus.subscribe({ group: 'test.crm', topics: [TOPICS.crm], handler: async (e) => void published.push(e) });
  admin = bearer((await login(gw.app)).json().session_token);
  await announceRole(gw, staffId, 'staff', true, 'Sam Staff');
});
afterAll(async () => {
  await gw?.close();
});

describe('leads', () => {
  const made: Record<string, Lead> = {};
  it('one lead per stage, plus validation', async () => {
    for (const [i, stage] of LEAD_STAGES.entries()) {
      const r = await inject('POST', CRM_ROUTES.leads, {
        name: `Lead ${stage}`,
        email: `Lead.${stage}@Example.co.uk`,
        company_name: i % 2 ? `Company ${stage}` : undefined,
        stage,
        source: i % 2 ? 'Website' : 'Referral',
        quote_amount: 100 + i,
        business_type: 'limited',
      });
      expect(r.statusCode, r.body).toBe(201);
      made[stage] = r.json();
    }
    expect(made.new_enquiry!.email).toBe('lead.new_enquiry@example.co.uk');
    const dflt = await inject('POST', CRM_ROUTES.leads, { name: 'Default Stage', email: 'default@example.co.uk' });
    expect(dflt.json().stage).toBe('new_enquiry');
    for (const payload of [
      {},
      { name: 'x' },
      { name: 'x', email: 'bad' },
      { name: '', email: 'a@b.co' },
      { name: 'x', email: 'a@b.co', stage: 'hot' },
      { name: 'x', email: 'a@b.co', quote_amount: -1 },
    ]) {
      const r = await inject('POST', CRM_ROUTES.leads, payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
    }
    const dup = await inject('POST', CRM_ROUTES.leads, { name: 'Again', email: 'DEFAULT@example.co.uk' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toEqual({ code: 'CONFLICT', message: 'A lead with this e-mail address already exists.' });
    const s = (await inject('GET', CRM_ROUTES.stats)).json();
    expect(s).toMatchObject({ total_leads: 7, new_leads: 2 });
  });

  it('list: stage filter, source filter, case-insensitive search on name, e-mail, company', async () => {
    const list = async (qs: string) => (await inject('GET', `${CRM_ROUTES.leads}?${qs}`)).json();
    expect((await list('stage=won')).leads.map((l: Lead) => l.name)).toEqual(['Lead won']);
    expect((await list('stage=new_enquiry')).total).toBe(2);
    expect((await list('source=Website')).total).toBe(3);
    expect((await list('search=LEAD%20NEGOTIATION')).total).toBe(1);
    expect((await list('search=lead.PROPOSAL_sent%40')).total).toBe(1);
    expect((await list('search=COMPANY%20qualified')).total).toBe(1);
    expect((await list('search=company&stage=lost')).total).toBe(1);
    const all = await list('page_size=3');
    expect(all.total).toBe(7);
    expect(all.leads).toHaveLength(3);
    expect(all.leads[0].name).toBe('Default Stage');
  });

  it('moves between any stages; conversion only from won, once', async () => {
    const id = made.qualified!.id;
    for (const stage of ['lost', 'new_enquiry', 'negotiation', 'won'] as const) {
      const r = await inject('PATCH', CRM_ROUTES.lead(id), { stage });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().stage).toBe(stage);
    }
    const notWon = await inject('POST', CRM_ROUTES.convertLead(made.lost!.id), {});
    expect(notWon.statusCode).toBe(409);
    expect(notWon.json().error.message).toBe('Only a won lead can be converted into a client.');
    const before = (await inject('GET', CRM_ROUTES.stats)).json();
    const conv = await inject('POST', CRM_ROUTES.convertLead(id), { package_name: 'Growth' });
    expect(conv.statusCode, conv.body).toBe(201);
    const { client, lead } = conv.json();
    expect(client).toMatchObject({
      company_name: 'Company qualified',
      contact_name: 'Lead qualified',
      contact_email: 'lead.qualified@example.co.uk',
      package_name: 'Growth',
      monthly_fee: 100,
      subscription_status: 'pending',
      business_type: 'limited',
    });
    expect(lead.converted_client_id).toBe(client.id);
    const after = (await inject('GET', CRM_ROUTES.stats)).json();
    expect(after.total_clients).toBe(before.total_clients + 1);
    expect(after.monthly_revenue).toBe(before.monthly_revenue + 100);
    const again = await inject('POST', CRM_ROUTES.convertLead(id), {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('This lead has already been converted into a client.');
    const away = await inject('PATCH', CRM_ROUTES.lead(id), { stage: 'lost' });
    expect(away.statusCode).toBe(409);
    const until = Date.now() + 5000;
    while (!published.some((e) => (e.data as { clientId: string }).clientId === client.id) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    expect(published.find((e) => (e.data as { clientId: string }).clientId === client.id)?.type).toBe('crm.client_upserted');
    expect((await inject('PATCH', CRM_ROUTES.lead(id), { stage: 'nope' })).statusCode).toBe(400);
    expect((await inject('PATCH', CRM_ROUTES.lead('00000000-0000-4000-8000-000000000000'), { stage: 'won' })).statusCode).toBe(404);
    expect((await inject('POST', CRM_ROUTES.convertLead(made.won!.id), { extra: 1 })).statusCode).toBe(400);
  });
});

describe('tasks, upgrades, communications, sidebar counts, header search', () => {
  let clientId = '';
  it('tasks: create, validate, filter, complete', async () => {
    clientId = (
      await inject('POST', CRM_ROUTES.clients, { company_name: 'Quill & Ink Ltd', contact_email: 'q@quill.co.uk', package_name: 'Growth' })
    ).json().id;
    const t = await inject('POST', CRM_ROUTES.tasks, {
      title: 'Prepare VAT return',
      client_id: clientId,
      assignee_id: staffId,
      due_date: '2026-04-07',
      priority: 'high',
    });
    expect(t.statusCode, t.body).toBe(201);
    expect(t.json()).toMatchObject({ status: 'pending', client_company_name: 'Quill & Ink Ltd', assignee_name: 'Sam Staff' });
    await inject('POST', CRM_ROUTES.tasks, { title: 'Payroll run' });
    for (const payload of [
      {},
      { title: '' },
      { title: 'x', status: 'done' },
      { title: 'x', priority: 'asap' },
      { title: 'x', due_date: 'tomorrow' },
      { title: 'x', client_id: '00000000-0000-4000-8000-000000000000' },
      { title: 'x', assignee_id: '00000000-0000-4000-8000-000000000000' },
    ]) {
      const r = await inject('POST', CRM_ROUTES.tasks, payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await inject('GET', CRM_ROUTES.sidebarCounts)).json().pending_tasks).toBe(2);
    const done = await inject('PATCH', CRM_ROUTES.task(t.json().id), { status: 'completed' });
    expect(done.json().completed_at).not.toBeNull();
    expect((await inject('GET', CRM_ROUTES.sidebarCounts)).json().pending_tasks).toBe(1);
    expect((await inject('GET', `${CRM_ROUTES.tasks}?status=completed`)).json().total).toBe(1);
    expect((await inject('GET', `${CRM_ROUTES.tasks}?search=vat%20RETURN`)).json().total).toBe(1);
  });

  it('upgrades: request, approve, complete moves the package and fee; bad moves are 409', async () => {
    const u = await inject('POST', CRM_ROUTES.upgrades, { client_id: clientId, to_package: 'Enterprise' });
    expect(u.statusCode, u.body).toBe(201);
    expect(u.json()).toMatchObject({
      from_package: 'Growth',
      to_package: 'Enterprise',
      status: 'pending',
      from_monthly_fee: 100,
      to_monthly_fee: 300,
    });
    expect((await inject('POST', CRM_ROUTES.upgrades, { client_id: clientId, to_package: 'Scale' })).statusCode).toBe(409);
    expect((await inject('GET', CRM_ROUTES.sidebarCounts)).json().pending_upgrades).toBe(1);
    expect((await inject('PATCH', CRM_ROUTES.upgrade(u.json().id), { status: 'completed' })).statusCode).toBe(409);
    expect((await inject('PATCH', CRM_ROUTES.upgrade(u.json().id), { status: 'approved' })).json().decided_at).not.toBeNull();
    const before = (await inject('GET', CRM_ROUTES.stats)).json().monthly_revenue;
    expect((await inject('PATCH', CRM_ROUTES.upgrade(u.json().id), { status: 'completed' })).statusCode).toBe(200);
    const c = (await inject('GET', CRM_ROUTES.client(clientId))).json();
    expect([c.package_name, c.monthly_fee]).toEqual(['Enterprise', 300]);
    expect((await inject('GET', CRM_ROUTES.stats)).json().monthly_revenue).toBe(before + 200);
    expect((await inject('PATCH', CRM_ROUTES.upgrade(u.json().id), { status: 'rejected' })).statusCode).toBe(409);
    expect((await inject('POST', CRM_ROUTES.upgrades, { client_id: clientId, to_package: 'Enterprise' })).statusCode).toBe(400);
    expect(
      (await inject('POST', CRM_ROUTES.upgrades, { client_id: '00000000-0000-4000-8000-000000000000', to_package: 'Scale' })).statusCode,
    ).toBe(400);
    expect((await inject('GET', CRM_ROUTES.sidebarCounts)).json().pending_upgrades).toBe(0);
  });

  it('communications: log, validate, count the last 24 hours by created_at', async () => {
    const m = await inject('POST', CRM_ROUTES.communications, {
      client_id: clientId,
      channel: 'phone',
      direction: 'inbound',
      subject: 'Question about VAT',
      occurred_at: new Date(Date.now() - 3 * 86400_000).toISOString(),
    });
    expect(m.statusCode, m.body).toBe(201);
    for (const payload of [
      {},
      { client_id: clientId, channel: 'fax', direction: 'inbound', subject: 'x' },
      { client_id: clientId, channel: 'email', direction: 'sideways', subject: 'x' },
      { client_id: clientId, channel: 'email', direction: 'inbound', subject: '' },
    ]) {
      expect((await inject('POST', CRM_ROUTES.communications, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    await gw.kit.runtime.pool.query(
      `insert into crm.communications (client_id, channel, direction, subject, created_at) values ($1, 'email', 'outbound', 'old', now() - interval '25 hours')`,
      [clientId],
    );
    expect((await inject('GET', CRM_ROUTES.sidebarCounts)).json().communications_24h).toBe(1);
    expect((await inject('GET', `${CRM_ROUTES.communications}?channel=phone`)).json().total).toBe(1);
  });

  it('header search groups clients, leads and tasks, case-insensitively', async () => {
    await inject('POST', CRM_ROUTES.leads, { name: 'Quentin Quill', email: 'qq@example.co.uk' });
    const r = await inject('GET', `${CRM_ROUTES.search}?q=QUILL`);
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.clients.map((c: { company_name: string }) => c.company_name)).toEqual(['Quill & Ink Ltd']);
    expect(body.leads.map((l: { name: string }) => l.name)).toEqual(['Quentin Quill']);
    expect(body.tasks).toEqual([]);
    expect((await inject('GET', `${CRM_ROUTES.search}?q=payroll`)).json().tasks.map((t: { title: string }) => t.title)).toEqual([
      'Payroll run',
    ]);
    expect((await inject('GET', `${CRM_ROUTES.search}?q=`)).statusCode).toBe(400);
  });
});
