import { CLIENT_PLACEHOLDERS, CLIENT_PROFILE_MESSAGES as M, CRM_ROUTES, MESSAGES, TOPICS, type EventEnvelope } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceRole, bearer, login, makePerson, startTestGateway, type Person, type TestGateway } from './helpers.js';

// PATCH /clients/mine: a client edits their own business profile (issue 6's onboarding checklist).
let gw: TestGateway;
let admin: Record<string, string>;
let grace: Person;
let other: Person;
let accountantId = '';
const ids = { grace: '', other: '' };
const published: EventEnvelope[] = [];

const row = async (id: string) =>
  (await gw.kit.runtime.pool.query('select * from crm.clients where id = $1', [id])).rows[0] as Record<string, unknown>;
const patchMine = (token: string | null, payload: unknown) =>
  gw.app.inject({ method: 'PATCH', url: CRM_ROUTES.myClient, headers: token ? bearer(token) : {}, payload: payload as object });

beforeAll(async () => {
  gw = await startTestGateway();
  await gw.kit.runtime.bus.subscribe({ group: 'test.crm.profile', topics: [TOPICS.crm], handler: async (e) => void published.push(e) });
  admin = bearer((await login(gw.app)).json().session_token);
  grace = await makePerson(gw, 'grace.profile@example.co.uk', ['client']);
  other = await makePerson(gw, 'olive.other@example.co.uk', ['client']);
  accountantId = (await makePerson(gw, 'acc.profile@practice.co.uk', ['accountant'])).id;
  await announceRole(gw, accountantId, 'accountant', true, 'Ada Accountant');
  const create = async (p: Person, email: string) =>
    (
      await gw.app.inject({
        method: 'POST',
        url: CRM_ROUTES.clients,
        headers: admin,
        payload: {
          user_id: p.id,
          company_name: CLIENT_PLACEHOLDERS.companyName,
          contact_name: CLIENT_PLACEHOLDERS.contactName,
          contact_email: email,
          package_name: 'Growth',
          subscription_status: 'active',
          next_billing_date: '2026-12-22',
          assigned_accountant_id: accountantId,
        },
      })
    ).json().id as string;
  ids.grace = await create(grace, 'grace.profile@example.co.uk');
  ids.other = await create(other, 'olive.other@example.co.uk');
});

afterAll(async () => {
  await gw?.close();
});

describe('PATCH /clients/mine', () => {
  it('refuses anonymous callers, staff of every role and the admin panel session', async () => {
    expect((await patchMine(null, { company_name: 'X Ltd' })).statusCode).toBe(401);
    for (const roles of [['accountant'], ['staff'], ['manager'], ['admin']]) {
      const p = await makePerson(gw, `${roles[0]}.profile@practice.co.uk`, roles);
      const r = await patchMine(p.token, { company_name: 'X Ltd' });
      expect(r.statusCode, roles[0]).toBe(403);
      expect(r.json().error).toEqual({ code: 'FORBIDDEN', message: MESSAGES.noAccessToArea });
    }
    const session = await gw.app.inject({ method: 'PATCH', url: CRM_ROUTES.myClient, headers: admin, payload: { company_name: 'X Ltd' } });
    expect(session.statusCode).toBe(403);
    expect((await row(ids.grace)).company_name).toBe(CLIENT_PLACEHOLDERS.companyName);
    expect((await row(ids.other)).company_name).toBe(CLIENT_PLACEHOLDERS.companyName);
  });

  it('a client without a client record is told to choose a package first', async () => {
    const newcomer = await makePerson(gw, 'new.comer@example.co.uk', ['client']);
    const r = await patchMine(newcomer.token, { company_name: 'Newcomer Ltd' });
    expect(r.statusCode).toBe(404);
    expect(r.json().error).toEqual({ code: 'NOT_FOUND', message: M.noRecord });
  });

  it('bad input gets a clear message per field and leaves the row unchanged', async () => {
    const before = await row(ids.grace);
    const cases: Array<[object, string, string]> = [
      [{ company_name: '   ' }, 'company_name', M.companyNameRequired],
      [{ company_name: 'x'.repeat(201) }, 'company_name', M.companyNameTooLong],
      [{ company_name: CLIENT_PLACEHOLDERS.companyName }, 'company_name', M.companyNamePlaceholder],
      [{ contact_name: '' }, 'contact_name', M.contactNameRequired],
      [{ contact_name: CLIENT_PLACEHOLDERS.contactName }, 'contact_name', M.contactNamePlaceholder],
      [{ contact_phone: 'call me' }, 'contact_phone', M.phoneInvalid],
      [{ contact_phone: '020 7946' }, 'contact_phone', M.phoneInvalid],
      [{ business_type: 'charity' }, 'business_type', M.businessTypeInvalid],
      [{ employees_count: -1 }, 'employees_count', M.employeesInvalid],
      [{ employees_count: 2.5 }, 'employees_count', M.employeesInvalid],
    ];
    for (const [payload, path, message] of cases) {
      const r = await patchMine(grace.token, { company_name: 'Valid Alongside Ltd', ...payload });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
      expect(r.json().error.message).toBe(message);
      expect(r.json().error.details).toContainEqual({ path, message });
    }
    // Two bad fields: both named.
    const two = await patchMine(grace.token, { company_name: '', employees_count: -3 });
    expect(two.json().error.details.map((d: { path: string }) => d.path)).toEqual(['company_name', 'employees_count']);
    // An empty body, unknown JSON and fields a client may not change are refused by the schema.
    for (const payload of [
      {},
      { subscription_status: 'cancelled' },
      { package_name: 'Enterprise' },
      { monthly_fee: 1 },
      { assigned_accountant_id: null },
      { contact_email: 'me@elsewhere.co.uk' },
      { onboarding_completed: true },
      { user_id: other.id },
      { company_name: 'Sneaky Ltd', subscription_status: 'active', package_name: 'Enterprise' },
    ]) {
      const r = await patchMine(grace.token, payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
    }
    expect(await row(ids.grace)).toEqual(before);
  });

  it('saves the own profile only, ticks onboarding when complete, and publishes crm.client_upserted', async () => {
    // Partial first: the name alone does not complete the profile.
    const first = await patchMine(grace.token, { company_name: '  Grace Growth Ltd  ' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ id: ids.grace, company_name: 'Grace Growth Ltd', onboarding_completed: false });

    const r = await patchMine(grace.token, {
      contact_name: 'Grace Hopper',
      contact_phone: '+44 7700 900123',
      business_type: 'sole_trader',
      employees_count: 3,
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      id: ids.grace,
      company_name: 'Grace Growth Ltd',
      contact_name: 'Grace Hopper',
      contact_phone: '+44 7700 900123',
      business_type: 'sole_trader',
      employees_count: 3,
      onboarding_completed: true,
      // what the client may not change stays as it was
      contact_email: 'grace.profile@example.co.uk',
      package_name: 'Growth',
      monthly_fee: 100,
      subscription_status: 'active',
      next_billing_date: '2026-12-22',
      assigned_accountant_id: accountantId,
      assigned_accountant_name: 'Ada Accountant',
    });
    expect((await gw.app.inject({ method: 'GET', url: CRM_ROUTES.myClient, headers: bearer(grace.token) })).json()).toEqual(r.json());

    // The other client's record is untouched.
    const o = await row(ids.other);
    expect(o.company_name).toBe(CLIENT_PLACEHOLDERS.companyName);
    expect(o.contact_name).toBe(CLIENT_PLACEHOLDERS.contactName);
    expect(o.onboarding_completed).toBe(false);

    // The phone cannot be cleared from the client's own profile (docs/decisions.md): refused, nothing written.
    const before = await row(ids.grace);
    for (const contact_phone of ['', '   ', null]) {
      const cleared = await patchMine(grace.token, { contact_phone });
      expect(cleared.statusCode, JSON.stringify(contact_phone)).toBe(400);
      expect(cleared.json().error.details).toEqual([{ path: 'contact_phone', message: M.phoneRequired }]);
    }
    expect(await row(ids.grace)).toEqual(before);

    const until = Date.now() + 5000;
    const mine = () => published.filter((e) => (e.data as { clientId: string }).clientId === ids.grace);
    // create + two edits (the refused clearings publish nothing)
    while (mine().length < 3 && Date.now() < until) await new Promise((res) => setTimeout(res, 50));
    await new Promise((res) => setTimeout(res, 200));
    expect(mine().map((e) => e.type)).toEqual(Array(3).fill('crm.client_upserted'));
    expect(mine()[2]!.data).toMatchObject({
      clientId: ids.grace,
      userId: grace.id,
      companyName: 'Grace Growth Ltd',
      contactName: 'Grace Hopper',
    });
    // issue 34: the actor carries the address (and name) the audit trail records
    expect(mine()[2]!.actor).toMatchObject({ kind: 'user', id: grace.id, ip: '127.0.0.1' });
  });
});
