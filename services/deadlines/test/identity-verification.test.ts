// Issue #30 acceptance on a local Companies House server: company 09876543's officers and PSCs with
// identity_verification_details; the view's order and texts, the confirmation statement blocked, access.
import { ensureInitialAdmin } from '@countinghouse/identity';
import { makeEnvelope } from '@countinghouse/kit';
import { createTestKit, waitFor } from '@countinghouse/kit/testing';
import { TOPICS, type ClientDeadlines, type EventData, type IdentityList, type TaxProfileInput } from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeAllInOne } from '../../../gateway/src/compose.js';
import { ADMIN, bearer, login, makePerson, type Person, type TestGateway } from '../../../gateway/test/helpers.js';
import { acmeIdentityCompany, startFakeCompaniesHouse, type FakeCompaniesHouse } from './fake-companies-house.js';

const TODAY = '2026-11-23';
let gw: TestGateway;
let ch: FakeCompaniesHouse;
let admin = '';
let accountant: Person;
let otherAccountant: Person;
let client: Person;
let staff: Person;
const acmeId = randomUUID();

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

beforeAll(async () => {
  ch = await startFakeCompaniesHouse();
  ch.companies.set('09876543', acmeIdentityCompany());
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
  accountant = await makePerson(gw, 'idv.accountant@x.co.uk', ['accountant']);
  otherAccountant = await makePerson(gw, 'idv.other@x.co.uk', ['accountant']);
  client = await makePerson(gw, 'idv.client@x.co.uk', ['client']);
  staff = await makePerson(gw, 'idv.staff@x.co.uk', ['staff']);
  await publishClient({
    clientId: acmeId,
    companyName: 'Acme Widgets Ltd',
    userId: client.id,
    assignedAccountantId: accountant.id,
    contactName: 'Alice Widget',
    contactEmail: 'alice@acme.co.uk',
  });
  await waitFor(async () => (await inject(admin, 'GET', `/api/deadlines/clients/${acmeId}`)).statusCode === 200, 'acme in the directory');
  const r = await inject(admin, 'PUT', `/api/deadlines/clients/${acmeId}`, profile({ company_number: '09876543' }));
  expect(r.statusCode, r.body).toBe(200);
}, 60_000);

afterAll(async () => {
  await gw?.close();
  await ch?.close();
});

const view = async (token: string, query = '') => {
  const r = await inject(token, 'GET', `/api/deadlines/identity-verification${query}`);
  return { status: r.statusCode, body: r.json() as IdentityList };
};

describe('identity verification of 09876543 (issue #30 acceptance)', () => {
  it("shows each person's status in Companies House's order, with the issue's texts", async () => {
    const { status, body } = await view(admin, `?filter=all&client_id=${acmeId}`);
    expect(status).toBe(200);
    // Ordered by due date across the practice; the order is Companies House's, per client:
    const byKey = new Map(body.people.map((p) => [p.person_key, p]));
    const order = [
      'officer:director:WIDGET, Alice Mary',
      'officer:director:COG, Charles',
      'officer:director:SPROCKET, Diana',
      'psc:Mr Edward John Lever',
      'psc:GEARBOX HOLDINGS LIMITED',
    ];
    expect(body.people).toHaveLength(5); // the resigned secretary is not listed
    expect(order.map((k) => byKey.get(k)?.status_text)).toEqual([
      'verified 2 Mar 2026',
      'due 14 Dec 2026',
      'overdue since 1 Sep 2026',
      'due 4 Dec 2026 (14 days, derived)',
      'due 18 Dec 2026 (28 days, derived)',
    ]);
    const alice = byKey.get(order[0]!)!;
    expect([alice.status, alice.verified_on, alice.verified_by, alice.verified_source]).toEqual([
      'verified',
      '2026-03-02',
      'LEDGER ACSP LIMITED',
      'companies_house',
    ]);
    expect(byKey.get(order[4]!)?.person_kind).toBe('relevant_legal_entity');
    expect(byKey.get(order[3]!)?.due_source).toBe('rule');
    expect(byKey.get(order[1]!)?.due_source).toBe('companies_house');
  });

  it('filters: overdue, due in 30 days, not verified (the default), by accountant', async () => {
    const names = (b: IdentityList) => b.people.map((p) => p.name);
    expect(names((await view(admin, '?filter=overdue')).body)).toEqual(['SPROCKET, Diana']);
    expect(names((await view(admin, '?filter=due_30')).body)).toEqual(['Mr Edward John Lever', 'COG, Charles', 'GEARBOX HOLDINGS LIMITED']);
    expect((await view(admin)).body.total).toBe(4);
    expect((await view(admin, '?filter=unknown')).body.total).toBe(0);
    expect((await view(admin, `?assignee_id=${accountant.id}`)).body.total).toBe(4);
    expect((await view(admin, '?assignee_id=none')).body.total).toBe(0);
  });

  it('each unverified person is a deadline of kind identity_verification; the confirmation statement is blocked', async () => {
    const r = await inject(admin, 'GET', `/api/deadlines/clients/${acmeId}/deadlines`);
    expect(r.statusCode, r.body).toBe(200);
    const ds = (r.json() as ClientDeadlines).deadlines;
    const idv = ds.filter((d) => d.kind === 'identity_verification');
    expect(idv.map((d) => [d.period, d.due_on, d.status])).toEqual([
      ['SPROCKET, Diana (director)', '2026-09-01', 'overdue'],
      ['Mr Edward John Lever (PSC)', '2026-12-04', 'due_soon'],
      ['COG, Charles (director)', '2026-12-14', 'upcoming'],
      ['GEARBOX HOLDINGS LIMITED (relevant legal entity)', '2026-12-18', 'upcoming'],
    ]);
    const cs = ds.filter((d) => d.kind === 'confirmation_statement');
    expect(cs[0]?.blocked).toBe('blocked: 4 people not verified');
    // The practice list says it too.
    const list = await inject(admin, 'GET', `/api/deadlines?kind=confirmation_statement&window=overdue&client_id=${acmeId}`);
    expect(list.json().deadlines[0].blocked).toBe('blocked: 4 people not verified');
  });

  it('once Companies House lists everyone verified, the deadlines go and the statement is no longer blocked', async () => {
    const verified = acmeIdentityCompany();
    for (const p of [...verified.officers!, ...verified.pscs!])
      p.identity_verification_details = { identity_verified_on: '2026-11-22', anti_money_laundering_supervisory_bodies: [] };
    ch.companies.set('09876543', verified);
    expect((await inject(staff.token, 'POST', `/api/deadlines/clients/${acmeId}/refresh`)).statusCode).toBe(200);
    const ds = (await inject(admin, 'GET', `/api/deadlines/clients/${acmeId}/deadlines`)).json().deadlines as ClientDeadlines['deadlines'];
    expect(ds.filter((d) => d.kind === 'identity_verification')).toEqual([]);
    expect(ds.find((d) => d.kind === 'confirmation_statement')?.blocked ?? null).toBeNull();
    expect((await view(admin)).body.total).toBe(0);
    ch.companies.set('09876543', acmeIdentityCompany());
    expect((await inject(staff.token, 'POST', `/api/deadlines/clients/${acmeId}/refresh`)).statusCode).toBe(200);
    expect((await view(admin)).body.total).toBe(4);
  });

  it('access through the permissions table: staff and the assigned accountant see; another accountant sees none; a client is refused', async () => {
    expect((await view(staff.token)).body.total).toBe(4);
    expect((await view(accountant.token)).body.total).toBe(4);
    const other = await view(otherAccountant.token);
    expect([other.status, other.body.total]).toEqual([200, 0]);
    expect((await view(client.token)).status).toBe(403);
    expect((await gw.app.inject({ method: 'GET', url: '/api/deadlines/identity-verification' })).statusCode).toBe(401);
    expect((await view(admin, '?filter=bogus')).status).toBe(400);
  });

  it("the daily job reminds the client's contact once per person and due date, with the GOV.UK One Login steps", async () => {
    const run = async () => {
      const id = await gw.kit.runtime.jobs.enqueue('deadlines.daily', { day: TODAY });
      return waitFor(async () => {
        const s = await gw.kit.runtime.jobs.status('deadlines.daily', id);
        if (s?.state === 'failed') throw new Error(s.failedReason);
        return s?.state === 'completed' ? (s.result as { identityReminders: number }) : null;
      }, 'the daily job');
    };
    expect((await run()).identityReminders).toBe(4);
    const mails = async () =>
      (await gw.kit.runtime.pool.query(`select subject, body from identity.outgoing_mail where "to" = 'alice@acme.co.uk' order by subject`))
        .rows as Array<{
        subject: string;
        body: string;
      }>;
    await waitFor(async () => (await mails()).length === 4, 'the reminders mailed');
    const bodies = (await mails()).map((m) => m.body.split('\n')[0]);
    expect(bodies.sort()).toEqual(
      [
        'Charles Cog must verify their identity by 14 Dec 2026.',
        'Diana Sprocket must verify their identity by 1 Sep 2026 (this date has passed).',
        'GEARBOX HOLDINGS LIMITED must give Companies House the details of its verified relevant officer by 18 Dec 2026.',
        'Mr Edward John Lever must verify his identity by 4 Dec 2026.',
      ].sort(),
    );
    expect((await mails())[0]!.body).toContain('GOV.UK One Login');
    // A second run sends nothing new.
    expect((await run()).identityReminders).toBe(0);
    expect(await mails()).toHaveLength(4);
  });
});
