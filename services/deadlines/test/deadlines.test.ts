import { ensureInitialAdmin } from '@countinghouse/identity';
import { makeEnvelope } from '@countinghouse/kit';
import { createTestKit, waitFor } from '@countinghouse/kit/testing';
import {
  DEADLINES_MESSAGES,
  TOPICS,
  type ClientDeadlines,
  type ClientTaxRecord,
  type Deadline,
  type EventData,
  type TaxProfileInput,
} from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeAllInOne } from '../../../gateway/src/compose.js';
import { ADMIN, bearer, login, makePerson, type Person, type TestGateway } from '../../../gateway/test/helpers.js';
import { acmeCompany, startFakeCompaniesHouse, type FakeCompaniesHouse } from './fake-companies-house.js';

const TODAY = '2026-11-23';
let gw: TestGateway;
let ch: FakeCompaniesHouse;
let admin = '';
let accountant: Person;
let owner: Person;
let staff: Person;
let acmeId = '';
const ownedId = randomUUID();
const otherId = randomUUID();

const profile = (p: Partial<TaxProfileInput> = {}): TaxProfileInput => ({
  company_number: null,
  company_type: 'private',
  incorporation_date: null,
  ard_day: null,
  ard_month: null,
  last_accounts_made_up_to: null,
  confirmation_review_date: null,
  vat_scheme: 'none',
  vat_annual_end_month: null,
  paye_scheme: false,
  paye_payday: null,
  sa_taxpayers: [],
  ...p,
});

async function publishClient(d: Partial<EventData<'crm.client_upserted'>> & { clientId: string; companyName: string }) {
  const data: EventData<'crm.client_upserted'> = {
    userId: null,
    contactName: null,
    contactEmail: 'x@example.co.uk',
    packageName: 'Growth',
    monthlyFee: 100,
    subscriptionStatus: 'active',
    assignedAccountantId: null,
    businessType: 'limited',
    ...d,
  };
  await gw.kit.runtime.bus.publish(TOPICS.crm, [
    { key: d.clientId, envelope: makeEnvelope('crm.client_upserted', data, { kind: 'system', id: null }) },
  ]);
}

const inject = (token: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  gw.app.inject({ method, url, headers: bearer(token), payload });

async function deadlinesOf(token: string, clientId: string): Promise<Deadline[]> {
  const r = await inject(token, 'GET', `/api/deadlines/clients/${clientId}/deadlines`);
  expect(r.statusCode, r.body).toBe(200);
  return (r.json() as ClientDeadlines).deadlines;
}

const pick = (ds: Deadline[], kind: string) => ds.filter((d) => d.kind === kind).map((d) => d.due_on);

beforeAll(async () => {
  ch = await startFakeCompaniesHouse();
  ch.companies.set('09876543', acmeCompany());
  const kit = await createTestKit();
  const app = await composeAllInOne({
    runtime: kit.runtime,
    signer: kit.signer,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    frontendDir: null,
    signInMax: 1000,
    publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'Test Practice', phone: '0100', email: 'a@b.c' } }),
    services: { deadlines: { companiesHouse: { apiKey: ch.apiKey, baseUrl: ch.url }, today: () => TODAY } },
  });
  await ensureInitialAdmin(kit.runtime.db, ADMIN);
  gw = { kit, app, close: async () => (await app.close(), await kit.close()) };
  admin = (await login(app)).json().session_token;
  accountant = await makePerson(gw, 'dl.accountant@x.co.uk', ['accountant']);
  owner = await makePerson(gw, 'dl.owner@x.co.uk', ['client']);
  staff = await makePerson(gw, 'dl.staff@x.co.uk', ['staff']);
  // A client made in crm (tasks need it there), and two published as crm would: one owned by `owner`
  // and assigned to `accountant`, one nobody above is connected to.
  const c = await inject(admin, 'POST', '/api/crm/clients', { company_name: 'Acme Widgets Ltd', contact_email: 'acme@x.co.uk' });
  expect(c.statusCode, c.body).toBe(201);
  acmeId = c.json().id;
  await publishClient({ clientId: ownedId, companyName: 'Owned Trading Ltd', userId: owner.id, assignedAccountantId: accountant.id });
  await publishClient({ clientId: otherId, companyName: 'Other Books Ltd' });
  await waitFor(async () => (await inject(admin, 'GET', `/api/deadlines/clients/${acmeId}`)).statusCode === 200, 'acme in the directory');
  await waitFor(async () => (await inject(admin, 'GET', `/api/deadlines/clients/${otherId}`)).statusCode === 200, 'other in the directory');
}, 60_000);

afterAll(async () => {
  await gw?.close();
  await ch?.close();
});

describe('Companies House link', () => {
  it('linking 09876543 shows accounts 31 Dec 2026, confirmation statement 14 Aug 2026, CT 1 Jan 2027, CT600 31 Mar 2027', async () => {
    const r = await inject(admin, 'PUT', `/api/deadlines/clients/${acmeId}`, profile({ company_number: ' 9876543 ' }));
    expect(r.statusCode, r.body).toBe(200);
    const record = r.json().record as ClientTaxRecord;
    expect(record.profile.company_number).toBe('09876543');
    expect(record.companies_house_configured).toBe(true);
    expect(record.company?.company_name).toBe('ACME WIDGETS LIMITED');
    expect(record.company?.accounting_reference_date).toEqual({ day: 31, month: 3 });
    expect(record.company?.officers.map((o) => o.name)).toEqual(['WIDGET, Alice Mary', 'GEAR, Bob']);
    expect(record.company?.pscs[0]?.natures_of_control).toContain('ownership-of-shares-75-to-100-percent');

    const ds = await deadlinesOf(admin, acmeId);
    // The next year's (to 31 Mar 2027) follow by rule.
    expect(pick(ds, 'accounts')).toEqual(['2026-12-31', '2027-12-31']);
    expect(pick(ds, 'confirmation_statement')).toEqual(['2026-08-14', '2027-08-14']);
    expect(pick(ds, 'ct_payment')).toEqual(['2027-01-01', '2028-01-01'].filter((d) => d <= '2028-01-27'));
    expect(pick(ds, 'ct600')).toEqual(['2027-03-31']);
    expect(ds.find((d) => d.kind === 'confirmation_statement' && d.due_on === '2026-08-14')?.status).toBe('overdue');
    expect(ds.find((d) => d.kind === 'accounts')?.source).toBe('companies_house');

    // HTTP Basic with the key as user name and an empty password on every request.
    expect(ch.requests.length).toBeGreaterThanOrEqual(3);
    expect(ch.requests.every((q) => q.authorised)).toBe(true);
    const ev = await gw.kit.runtime.pool.query(`select envelope from deadlines.outbox where type = 'deadlines.company_refreshed'`);
    expect(ev.rows).toHaveLength(1);
    const data = ev.rows[0].envelope.data;
    expect(data.officers).toHaveLength(2);
    expect(data.pscs).toHaveLength(1);
  });

  it('a changed date at the next refresh moves its deadline and records what changed', async () => {
    ch.companies.set('09876543', acmeCompany());
    const moved = acmeCompany();
    (moved.profile.accounts as { next_accounts: { due_on: string } }).next_accounts.due_on = '2027-03-31';
    ch.companies.set('09876543', moved);
    const r = await inject(staff.token, 'POST', `/api/deadlines/clients/${acmeId}/refresh`);
    expect(r.statusCode, r.body).toBe(200);
    expect(pick(await deadlinesOf(admin, acmeId), 'accounts')).toEqual(['2027-03-31', '2027-12-31']);
    const changes = await gw.kit.runtime.pool.query(
      `select kind, from_due::text, to_due::text, reason from deadlines.deadline_changes where client_id = $1`,
      [acmeId],
    );
    expect(changes.rows).toEqual([{ kind: 'accounts', from_due: '2026-12-31', to_due: '2027-03-31', reason: 'companies_house' }]);
    ch.companies.set('09876543', acmeCompany());
    await inject(staff.token, 'POST', `/api/deadlines/clients/${acmeId}/refresh`);
    expect(pick(await deadlinesOf(admin, acmeId), 'accounts')).toEqual(['2026-12-31', '2027-12-31']);
  });

  it('backs off on 429 (Retry-After) and retries', async () => {
    const before = ch.requests.length;
    ch.throttleNext(1, 1);
    const r = await inject(admin, 'POST', `/api/deadlines/clients/${acmeId}/refresh`);
    expect(r.statusCode, r.body).toBe(200);
    expect(ch.requests.length - before).toBe(4); // one refused, then profile, officers, PSCs
  });

  it('an unknown company number is saved and said so; the rules work from the hand-entered fields', async () => {
    const r = await inject(
      admin,
      'PUT',
      `/api/deadlines/clients/${otherId}`,
      profile({ company_number: '01234567', ard_day: 31, ard_month: 12 }),
    );
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().message).toContain('Companies House has no company with this number');
    expect(r.json().record.company).toBeNull();
    expect(r.json().record.company_error).toBe('Companies House has no company with this number');
    const ds = await deadlinesOf(admin, otherId);
    expect(pick(ds, 'ct600')).toContain('2026-12-31'); // year ended 31 Dec 2025 by rule
    expect(ds.every((d) => d.source === 'rule')).toBe(true);
  });

  it('a dissolved company is shown as such and raises no future deadlines', async () => {
    const id = randomUUID();
    await publishClient({ clientId: id, companyName: 'Gone Ltd' });
    ch.companies.set('07777777', acmeCompany({ company_number: '07777777', company_name: 'GONE LIMITED', company_status: 'dissolved' }));
    await waitFor(async () => (await inject(admin, 'GET', `/api/deadlines/clients/${id}`)).statusCode === 200, 'gone in the directory');
    const r = await inject(admin, 'PUT', `/api/deadlines/clients/${id}`, profile({ company_number: '07777777', vat_scheme: 'stagger_1' }));
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().record.company.company_status).toBe('dissolved');
    expect(await deadlinesOf(admin, id)).toEqual([]);
  });

  it('refuses a profile that breaks the form rules, with the reason', async () => {
    const bad = await inject(admin, 'PUT', `/api/deadlines/clients/${acmeId}`, profile({ ard_day: 31, ard_month: null }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('Enter both the day and the month of the accounting reference date');
    const number = await inject(admin, 'PUT', `/api/deadlines/clients/${acmeId}`, profile({ company_number: 'ABC' }));
    expect(number.statusCode).toBe(400);
    const feb30 = await inject(admin, 'PUT', `/api/deadlines/clients/${acmeId}`, profile({ ard_day: 30, ard_month: 2 }));
    expect(feb30.json().error.message).toBe('That accounting reference date does not exist');
  });

  it('name search goes to Companies House', async () => {
    const r = await inject(staff.token, 'GET', '/api/deadlines/companies-house/search?q=acme');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().items).toEqual([
      {
        company_number: '09876543',
        title: 'ACME WIDGETS LIMITED',
        company_status: 'active',
        date_of_creation: '2015-11-02',
        address_snippet: '1 Ledger Lane, London, EC1A 1AA',
      },
    ]);
    expect((await inject(owner.token, 'GET', '/api/deadlines/companies-house/search?q=acme')).statusCode).toBe(403);
  });

  it('the sign-up lookup: one company by its number, without an account: the name, status and our business type from the register', async () => {
    ch.companies.set('OC412345', acmeCompany({ company_name: 'LEDGER PARTNERS LLP', company_number: 'OC412345', type: 'llp' }));
    const lookup = (company_number: string) =>
      gw.app.inject({ method: 'POST', url: '/api/deadlines/companies-house/lookup', payload: { company_number } });
    const before = ch.requests.length;
    const ltd = await lookup('9876543');
    expect(ltd.statusCode, ltd.body).toBe(200);
    expect(ltd.headers['cache-control']).toBe('no-store');
    expect(ltd.json()).toEqual({
      company_number: '09876543',
      company_name: 'ACME WIDGETS LIMITED',
      company_status: 'active',
      company_type: 'ltd',
      business_type: 'limited',
      incorporated_on: '2015-11-02',
    });
    const llp = await lookup(' oc412345 ');
    expect(llp.json()).toMatchObject({ company_number: 'OC412345', company_name: 'LEDGER PARTNERS LLP', business_type: 'llp' });
    // The practice's key went to Companies House for each, and only the profile was read.
    expect(ch.requests.slice(before).map((r) => [r.path, r.authorised])).toEqual([
      ['/company/09876543', true],
      ['/company/OC412345', true],
    ]);

    const unknown = await lookup('12345678');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(DEADLINES_MESSAGES.companyNotFound);
    const bad = await lookup('ABC');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].path).toBe('/company_number');
    expect(ch.requests.length).toBe(before + 3);
    // Companies House refusing the key or not answering is said plainly, with no staff wording.
    ch.throttleNext(10, 120);
    const busy = await lookup('09876543');
    expect(busy.statusCode).toBe(503);
    expect(busy.json().error.message).toBe(DEADLINES_MESSAGES.lookupNotAvailable);
    ch.throttleNext(0, 0);
  });
});

describe('a company number given at sign-up (issue 33, decision 665)', () => {
  const activated = (userId: string, companyNumber: string | null) =>
    gw.kit.runtime.bus.publish(TOPICS.billing, [
      {
        key: userId,
        envelope: makeEnvelope(
          'billing.subscription_activated',
          {
            subscriptionId: `sub_${userId}`,
            userId,
            email: `${userId}@example.co.uk`,
            packageName: 'Growth',
            monthlyFee: 100,
            status: 'active',
            currentPeriodEnd: null,
            provider: 'test',
            checkoutSessionId: `cs_${userId}`,
            companyName: 'Acme Widgets Ltd',
            businessType: 'limited',
            companyNumber,
          },
          { kind: 'system', id: null },
        ),
      },
    ]);
  const clientOf = (userId: string) =>
    waitFor(async () => {
      const { rows } = await gw.kit.runtime.pool.query('select client_id from deadlines.client_directory where user_id = $1', [userId]);
      return rows[0]?.client_id as string | undefined;
    }, 'the new client in the directory');

  it("becomes the new client's tax profile when crm's record arrives, and is read from Companies House", async () => {
    const userId = randomUUID();
    // The payment's event: crm makes the client from it, and deadlines keeps the number until then.
    await activated(userId, '9876543');
    const clientId = await clientOf(userId);
    const record = await waitFor(
      async () => {
        const r = await inject(admin, 'GET', `/api/deadlines/clients/${clientId}`);
        const rec = r.json() as ClientTaxRecord;
        return rec.profile.company_number === '09876543' && rec.company?.company_name === 'ACME WIDGETS LIMITED' ? rec : null;
      },
      'the profile linked and read from Companies House',
      20_000,
    );
    expect(record.updated_by_name).toBe('The client, at sign-up');
    // Companies House's next accounts date, then the rule's year after it.
    expect(pick(await deadlinesOf(admin, clientId), 'accounts')).toEqual(['2026-12-31', '2027-12-31']);
    const { rows } = await gw.kit.runtime.pool.query('select 1 from deadlines.signup_companies where user_id = $1', [userId]);
    expect(rows).toHaveLength(0);
  });

  it('waiting for a client record that arrives later works the same; a number staff already entered is kept', async () => {
    const waiting = (userId: string) =>
      gw.kit.runtime.pool.query(`insert into deadlines.signup_companies (user_id, company_number) values ($1, '09876543')`, [userId]);
    const record = async (clientId: string) => (await inject(admin, 'GET', `/api/deadlines/clients/${clientId}`)).json() as ClientTaxRecord;

    const userId = randomUUID();
    const clientId = randomUUID();
    await waiting(userId);
    await publishClient({ clientId, companyName: 'Late Record Ltd', userId });
    await waitFor(async () => (await record(clientId)).profile?.company_number === '09876543', 'the waiting number applied');

    const keeper = randomUUID();
    const keptId = randomUUID();
    await publishClient({ clientId: keptId, companyName: 'Kept Number Ltd', userId: keeper });
    await waitFor(async () => (await inject(admin, 'GET', `/api/deadlines/clients/${keptId}`)).statusCode === 200, 'the kept client');
    const put = await inject(admin, 'PUT', `/api/deadlines/clients/${keptId}`, profile({ company_number: 'SC123456' }));
    expect(put.statusCode, put.body).toBe(200);
    await waiting(keeper);
    await publishClient({ clientId: keptId, companyName: 'Kept Number Ltd', userId: keeper, subscriptionStatus: 'overdue' });
    await waitFor(async () => {
      const { rows } = await gw.kit.runtime.pool.query('select 1 from deadlines.signup_companies where user_id = $1', [keeper]);
      return rows.length === 0;
    }, 'the waiting number used up');
    expect((await record(keptId)).profile.company_number).toBe('SC123456');
  });
});

describe('who sees and changes what', () => {
  beforeAll(async () => {
    const r = await inject(admin, 'PUT', `/api/deadlines/clients/${ownedId}`, profile({ vat_scheme: 'stagger_1' }));
    expect(r.statusCode, r.body).toBe(200);
  });

  it('an accountant sees and edits only assigned clients', async () => {
    expect((await inject(accountant.token, 'GET', `/api/deadlines/clients/${ownedId}`)).statusCode).toBe(200);
    expect((await inject(accountant.token, 'GET', `/api/deadlines/clients/${otherId}`)).statusCode).toBe(403);
    expect((await inject(accountant.token, 'PUT', `/api/deadlines/clients/${otherId}`, profile())).statusCode).toBe(403);
    expect(
      (await inject(accountant.token, 'PUT', `/api/deadlines/clients/${ownedId}`, profile({ vat_scheme: 'stagger_1' }))).statusCode,
    ).toBe(200);
    const list = await inject(accountant.token, 'GET', '/api/deadlines?window=all');
    expect(list.statusCode, list.body).toBe(200);
    const clients = new Set((list.json().deadlines as Deadline[]).map((d) => d.client_id));
    expect([...clients]).toEqual([ownedId]);
  });

  it('a client sees only their own business and changes nothing', async () => {
    const mine = await inject(owner.token, 'GET', '/api/deadlines/mine');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().deadlines.length).toBeGreaterThan(0);
    expect(mine.json().deadlines.every((d: Deadline) => d.client_id === ownedId)).toBe(true);
    expect((await inject(owner.token, 'GET', `/api/deadlines/clients/${ownedId}/deadlines`)).statusCode).toBe(200);
    expect((await inject(owner.token, 'GET', `/api/deadlines/clients/${acmeId}/deadlines`)).statusCode).toBe(403);
    expect((await inject(owner.token, 'GET', '/api/deadlines')).statusCode).toBe(403);
    expect((await inject(owner.token, 'PUT', `/api/deadlines/clients/${ownedId}`, profile())).statusCode).toBe(403);
    const one = (await deadlinesOf(owner.token, ownedId))[0]!;
    expect((await inject(owner.token, 'POST', `/api/deadlines/${one.id}/done`)).statusCode).toBe(403);
    expect((await inject(staff.token, 'GET', '/api/deadlines/mine')).statusCode).toBe(403);
  });

  it('the list filters by kind, client, assignee and window', async () => {
    const all = (await inject(admin, 'GET', '/api/deadlines?window=all&page_size=200')).json();
    expect(all.total).toBeGreaterThan(0);
    const vat = (await inject(admin, 'GET', '/api/deadlines?window=all&kind=vat_return')).json();
    expect(vat.deadlines.every((d: Deadline) => d.kind === 'vat_return')).toBe(true);
    const byAssignee = (await inject(admin, 'GET', `/api/deadlines?window=all&assignee_id=${accountant.id}`)).json();
    expect(byAssignee.deadlines.every((d: Deadline) => d.client_id === ownedId)).toBe(true);
    const thirty = (await inject(admin, 'GET', '/api/deadlines?window=30')).json();
    // Issue 26: overdue deadlines show in every window, first (they were hidden before).
    expect(thirty.deadlines.every((d: Deadline) => (d.due_on >= TODAY || d.status === 'overdue') && d.due_on <= '2026-12-23')).toBe(true);
    expect(thirty.deadlines.map((d: Deadline) => d.status === 'overdue')).toEqual(
      [...thirty.deadlines.map((d: Deadline) => d.status === 'overdue')].sort((a, b) => Number(b) - Number(a)),
    );
    expect(thirty.deadlines.some((d: Deadline) => d.status === 'overdue')).toBe(true);
    const overdue = (await inject(admin, 'GET', `/api/deadlines?window=overdue&client_id=${acmeId}`)).json();
    // Issue #30: acme's director and PSC (Companies House lists no identity verification for them) are
    // overdue too: the director by the transition-year confirmation statement (14 Aug 2026), the PSC who
    // is also a director 14 days after it.
    expect(overdue.deadlines.map((d: Deadline) => [d.kind, d.period, d.due_on, d.status]).sort()).toEqual(
      [
        ['confirmation_statement', 'Review period to 31 Jul 2026', '2026-08-14', 'overdue'],
        ['identity_verification', 'Mrs Alice Mary Widget (PSC)', '2026-08-28', 'overdue'],
        ['identity_verification', 'WIDGET, Alice Mary (director)', '2026-08-14', 'overdue'],
      ].sort(),
    );
    expect((await inject(admin, 'GET', '/api/deadlines?window=7')).statusCode).toBe(400);
  });
});

describe('done, tasks and notices', () => {
  it('marking done keeps who and when, leaves the open list, and cannot be done twice', async () => {
    const [first] = (await inject(admin, 'GET', `/api/deadlines?window=all&client_id=${ownedId}`)).json().deadlines as Deadline[];
    const r = await inject(accountant.token, 'POST', `/api/deadlines/${first!.id}/done`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().deadline.status).toBe('done');
    expect(r.json().deadline.done_by_name).toBeTruthy();
    expect((await inject(admin, 'POST', `/api/deadlines/${first!.id}/done`)).statusCode).toBe(409);
    const open = (await inject(admin, 'GET', `/api/deadlines?window=all&client_id=${ownedId}`)).json().deadlines as Deadline[];
    expect(open.some((d) => d.id === first!.id)).toBe(false);
    const ev = await gw.kit.runtime.pool.query(`select count(*)::int n from deadlines.outbox where type = 'deadlines.deadline_done'`);
    expect(ev.rows[0].n).toBe(1);
  });

  it('the daily job opens one crm task per deadline in the lead time, once, and announces overdue ones once', async () => {
    const run = async () => {
      const id = await gw.kit.runtime.jobs.enqueue('deadlines.daily', { day: TODAY });
      return waitFor(async () => {
        const s = await gw.kit.runtime.jobs.status('deadlines.daily', id);
        if (s?.state === 'failed') throw new Error(s.failedReason);
        return s?.state === 'completed' ? (s.result as { tasksRequested: number; overdueAnnounced: number }) : null;
      }, 'the daily job');
    };
    // 40 days ahead: Acme's accounts (31 Dec 2026, 38 days away) are in; its CT payment (1 Jan 2027) too.
    expect((await inject(admin, 'PUT', '/api/deadlines/settings', { task_lead_days: 40 })).statusCode).toBe(200);
    const first = await run();
    expect(first.tasksRequested).toBeGreaterThan(0);
    expect(first.overdueAnnounced).toBeGreaterThan(0);
    const tasks = () =>
      gw.kit.runtime.pool.query(
        `select title, client_id, due_date::text from crm.tasks where source_key like 'deadline:%' order by due_date, title`,
      );
    await waitFor(async () => (await tasks()).rows.length === first.tasksRequested, 'crm tasks');
    const acmeTask = (await tasks()).rows.find((t) => t.client_id === acmeId);
    expect(acmeTask).toMatchObject({ title: 'Annual accounts (Companies House): Acme Widgets Ltd', due_date: '2026-12-31' });

    const second = await run();
    expect(second).toMatchObject({ tasksRequested: 0, overdueAnnounced: 0 });
    // A redelivered event opens nothing either.
    const { rows } = await gw.kit.runtime.pool.query(
      `select envelope from deadlines.outbox where type = 'deadlines.task_requested' limit 1`,
    );
    const envelope = rows[0].envelope;
    await gw.kit.runtime.bus.publish(TOPICS.deadlines, [{ key: 'x', envelope: { ...envelope, id: randomUUID() } }]);
    await new Promise((r) => setTimeout(r, 300));
    expect((await tasks()).rows.length).toBe(first.tasksRequested);

    await waitFor(async () => {
      const n = await gw.kit.runtime.pool.query(`select count(*)::int n from notifications.notifications where kind = 'deadline_overdue'`);
      return n.rows[0].n === first.overdueAnnounced;
    }, 'overdue notifications');
  });

  it('the task lead time is a setting managers change', async () => {
    expect((await inject(staff.token, 'PUT', '/api/deadlines/settings', { task_lead_days: 45 })).statusCode).toBe(403);
    const r = await inject(admin, 'PUT', '/api/deadlines/settings', { task_lead_days: 45 });
    expect(r.json()).toEqual({ task_lead_days: 45 });
    expect((await inject(admin, 'PUT', '/api/deadlines/settings', { task_lead_days: 0 })).statusCode).toBe(400);
  });
});

describe('calendar feed', () => {
  it('a secret address shown once; the feed needs no sign-in; a reset kills the old address', async () => {
    const before = await inject(accountant.token, 'GET', '/api/deadlines/calendar');
    expect(before.json()).toMatchObject({ has_feed: false, url: null });
    const made = await inject(accountant.token, 'POST', '/api/deadlines/calendar/reset');
    expect(made.statusCode, made.body).toBe(200);
    const url = new URL(made.json().url as string);
    expect(url.pathname).toMatch(/^\/api\/deadlines\/feed\/[A-Za-z0-9_-]{43}\.ics$/);
    const stored = await gw.kit.runtime.pool.query(`select token_hash from deadlines.calendar_tokens`);
    expect(stored.rows[0].token_hash).not.toContain(url.pathname.split('/').pop()!.replace('.ics', ''));

    const feed = await gw.app.inject({ method: 'GET', url: url.pathname });
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.headers['content-type']).toContain('text/calendar');
    expect(feed.body.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(feed.body).toContain('SUMMARY:Owned Trading Ltd: VAT return and payment');
    expect(feed.body).not.toContain('Acme');
    expect(feed.body.split('\r\n').every((l) => Buffer.byteLength(l) <= 75)).toBe(true);

    const again = await inject(accountant.token, 'POST', '/api/deadlines/calendar/reset');
    expect((await gw.app.inject({ method: 'GET', url: url.pathname })).statusCode).toBe(404);
    expect((await gw.app.inject({ method: 'GET', url: new URL(again.json().url).pathname })).statusCode).toBe(200);
    expect((await inject(owner.token, 'POST', '/api/deadlines/calendar/reset')).statusCode).toBe(403);
  });
});

describe("HMRC's MTD obligations (integrations.mtd_obligations_updated, issue 31)", () => {
  const soleId = randomUUID();
  const sam = { id: 's1', name: 'Sam Trader', role: 'sole_trader' as const, paper_return: false, qualifying_income: 60_000 };
  const obligation = (
    end: string,
    due: string,
    o: Partial<EventData<'integrations.mtd_obligations_updated'>['obligations'][number]> = {},
  ) => ({
    kind: 'quarterly' as const,
    businessId: 'XAIS12345678901',
    periodStartDate: '2026-04-06',
    periodEndDate: end,
    dueDate: due,
    status: 'open',
    receivedDate: null,
    ...o,
  });
  async function publishObligations(refreshedAt: string, obligations: EventData<'integrations.mtd_obligations_updated'>['obligations']) {
    await gw.kit.runtime.bus.publish(TOPICS.integrations, [
      {
        key: soleId,
        envelope: makeEnvelope(
          'integrations.mtd_obligations_updated',
          { clientId: soleId, refreshedAt, obligations },
          { kind: 'system', id: null },
        ),
      },
    ]);
  }

  it("HMRC's dates replace the computed ones, what HMRC received is done by HMRC, and an older answer changes nothing", async () => {
    await publishClient({ clientId: soleId, companyName: 'Sam Trader', businessType: 'sole_trader' });
    await waitFor(async () => (await inject(admin, 'GET', `/api/deadlines/clients/${soleId}`)).statusCode === 200, 'sam in the directory');
    const r = await inject(admin, 'PUT', `/api/deadlines/clients/${soleId}`, profile({ sa_taxpayers: [sam] }));
    expect(r.statusCode, r.body).toBe(200);
    // By rule (today 23 Nov 2026): the quarter to 5 Jan 2027 is due 7 Feb 2027.
    expect(pick(await deadlinesOf(admin, soleId), 'mtd_quarterly_update')).toContain('2027-02-07');

    // HMRC: the quarter to 5 Oct was received on 3 Nov; the quarter to 5 Jan is due 9 Feb (a moved date).
    await publishObligations('2026-11-23T09:00:00.000Z', [
      obligation('2026-10-05', '2026-11-07', { status: 'fulfilled', receivedDate: '2026-11-03' }),
      obligation('2027-01-05', '2027-02-09'),
    ]);
    await waitFor(async () => pick(await deadlinesOf(admin, soleId), 'mtd_quarterly_update').includes('2027-02-09'), 'HMRC dates applied');
    const ds = await deadlinesOf(admin, soleId);
    const jan = ds.find((d) => d.kind === 'mtd_quarterly_update' && d.period_end === '2027-01-05')!;
    expect([jan.due_on, jan.source, jan.status]).not.toContain('done');
    expect([jan.due_on, jan.source]).toEqual(['2027-02-09', 'hmrc']);
    const oct = ds.find((d) => d.kind === 'mtd_quarterly_update' && d.period_end === '2026-10-05')!;
    expect([oct.status, oct.done_by_name, oct.filed_on]).toEqual(['done', 'HMRC', '2026-11-03']);
    const done = await gw.kit.runtime.pool.query(
      `select envelope from deadlines.outbox where type = 'deadlines.deadline_done' and envelope->'data'->>'deadlineId' = $1`,
      [oct.id],
    );
    expect(done.rows).toHaveLength(1);
    const moved = await gw.kit.runtime.pool.query(
      `select reason, from_due::text, to_due::text from deadlines.deadline_changes where deadline_id = $1`,
      [jan.id],
    );
    expect(moved.rows).toEqual([{ reason: 'hmrc', from_due: '2027-02-07', to_due: '2027-02-09' }]);

    // An answer read earlier, delivered late, is ignored: the date stays HMRC's newer one.
    await publishObligations('2026-11-22T09:00:00.000Z', [obligation('2027-01-05', '2027-02-20')]);
    await publishObligations('2026-11-23T10:00:00.000Z', [
      obligation('2026-10-05', '2026-11-07', { status: 'fulfilled', receivedDate: '2026-11-03' }),
      obligation('2027-01-05', '2027-02-10'),
    ]);
    await waitFor(async () => pick(await deadlinesOf(admin, soleId), 'mtd_quarterly_update').includes('2027-02-10'), 'the newest answer');
    expect(pick(await deadlinesOf(admin, soleId), 'mtd_quarterly_update')).not.toContain('2027-02-20');
  });
});
