import { ensureInitialAdmin } from '@countinghouse/identity';
import { makeEnvelope } from '@countinghouse/kit';
import { createTestKit, waitFor } from '@countinghouse/kit/testing';
import {
  TOPICS,
  type CapacityReply,
  type DeliveryReply,
  type Deadline,
  type EventData,
  type JobDetail,
  type JobList,
  type ProfitabilityReply,
  type TaxProfileInput,
} from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeAllInOne } from '../../../gateway/src/compose.js';
import { ADMIN, bearer, login, makePerson, type Person, type TestGateway } from '../../../gateway/test/helpers.js';

// Client jobs (issue 29) on a real PostgreSQL through the all-in-one app: opened from deadlines by the
// daily run, moved through stages, filed (the deadline done in the same transaction), time, capacity,
// profitability, and who may do what.
const TODAY = '2026-11-23';
let gw: TestGateway;
let adminSession = '';
const p = {} as Record<'manager' | 'staff' | 'accountant' | 'otherAccountant' | 'client', Person>;
const ownedId = randomUUID();
const otherId = randomUUID();

const profile = (x: Partial<TaxProfileInput> = {}): TaxProfileInput => ({
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
  ...x,
});

/** crm's client event (at `occurredAt`, else now). */
async function publishClient(
  d: Partial<EventData<'crm.client_upserted'>> & { clientId: string; companyName: string },
  occurredAt?: string,
) {
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
  const envelope = makeEnvelope('crm.client_upserted', data, { kind: 'system', id: null });
  await gw.kit.runtime.bus.publish(TOPICS.crm, [{ key: d.clientId, envelope: occurredAt ? { ...envelope, occurredAt } : envelope }]);
}

type Caller = keyof typeof p | 'adminSession';
const tokenOf = (c: Caller) => (c === 'adminSession' ? adminSession : p[c].token);
const call = (c: Caller, method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  gw.app.inject({ method, url, headers: bearer(tokenOf(c)), payload });

async function runDaily() {
  const id = await gw.kit.runtime.jobs.enqueue('deadlines.daily', { day: TODAY });
  return waitFor(async () => {
    const s = await gw.kit.runtime.jobs.status('deadlines.daily', id);
    if (s?.state === 'failed') throw new Error(s.failedReason);
    return s?.state === 'completed' ? (s.result as { jobsOpened: number }) : null;
  }, 'the daily job');
}

async function jobsOf(c: Caller, query = ''): Promise<JobList> {
  const r = await call(c, 'GET', `/api/deadlines/jobs?page_size=200&${query}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as JobList;
}

let accountsJobId = '';

beforeAll(async () => {
  const kit = await createTestKit();
  const app = await composeAllInOne({
    runtime: kit.runtime,
    signer: kit.signer,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    frontendDir: null,
    signInMax: 1000,
    publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'Test Practice', phone: '0100', email: 'a@b.c' } }),
    services: { deadlines: { today: () => TODAY } },
  });
  await ensureInitialAdmin(kit.runtime.db, ADMIN);
  gw = { kit, app, close: async () => (await app.close(), await kit.close()) };
  adminSession = (await login(app)).json().session_token;
  p.manager = await makePerson(gw, 'jb.manager@x.co.uk', ['manager']);
  p.staff = await makePerson(gw, 'jb.staff@x.co.uk', ['staff']);
  p.accountant = await makePerson(gw, 'jb.acc@x.co.uk', ['accountant']);
  p.otherAccountant = await makePerson(gw, 'jb.acc2@x.co.uk', ['accountant']);
  p.client = await makePerson(gw, 'jb.client@x.co.uk', ['client']);
  await publishClient({
    clientId: ownedId,
    companyName: 'Owned Trading Ltd',
    assignedAccountantId: p.accountant.id,
    monthlyFee: 150,
    packageName: 'Starter',
  });
  await publishClient({ clientId: otherId, companyName: 'Other Books Ltd', assignedAccountantId: p.otherAccountant.id });
  for (const id of [ownedId, otherId])
    await waitFor(async () => (await call('adminSession', 'GET', `/api/deadlines/clients/${id}`)).statusCode === 200, 'directory');
  // Year end 31 March, last accounts to 31 Mar 2025: the accounts to 31 Mar 2026 are due 31 Dec 2026 (CA 2006 s442).
  for (const id of [ownedId, otherId]) {
    const r = await call(
      'adminSession',
      'PUT',
      `/api/deadlines/clients/${id}`,
      profile({ ard_day: 31, ard_month: 3, last_accounts_made_up_to: '2025-03-31' }),
    );
    expect(r.statusCode, r.body).toBe(200);
  }
  // identity's role events (as identity sends them when a role is granted) reach the jobs' staff list.
  const roleOf = { manager: 'manager', staff: 'staff', accountant: 'accountant', otherAccountant: 'accountant' } as const;
  for (const [who, role] of Object.entries(roleOf)) {
    const person = p[who as keyof typeof roleOf];
    const data: EventData<'identity.role_changed'> = { userId: person.id, role, isActive: true, email: person.email, name: `Jobs ${who}` };
    await gw.kit.runtime.bus.publish(TOPICS.identity, [
      { key: person.id, envelope: makeEnvelope('identity.role_changed', data, { kind: 'system', id: null }) },
    ]);
  }
  await waitFor(async () => {
    const n = await gw.kit.runtime.pool.query(`select count(*)::int n from deadlines.job_staff `);
    return n.rows[0].n === 4;
  }, 'staff from identity');
}, 90_000);

afterAll(async () => {
  await gw?.close();
});

describe('jobs from deadlines', () => {
  it('accounts due 31 Dec 2026 open one Year-end accounts job, due on the internal target, assigned to the accountant; a second run opens nothing', async () => {
    const ds = (await call('adminSession', 'GET', `/api/deadlines/clients/${ownedId}/deadlines`)).json().deadlines as Deadline[];
    const accounts = ds.find((d) => d.kind === 'accounts' && d.due_on === '2026-12-31');
    expect(accounts, JSON.stringify(ds.map((d) => [d.kind, d.due_on]))).toBeTruthy();

    const first = await runDaily();
    expect(first.jobsOpened).toBeGreaterThan(0);
    const mine = (await jobsOf('adminSession', `client_id=${ownedId}&kind=year_end_accounts`)).jobs;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      kind: 'year_end_accounts',
      client_name: 'Owned Trading Ltd',
      stage: 'Records requested',
      status: 'open',
      statutory_due_on: '2026-12-31',
      due_on: '2026-12-21',
      assignee_id: p.accountant.id,
      deadline_id: accounts!.id,
      budget_minutes: 480,
    });
    accountsJobId = mine[0]!.id;
    const count = async () => (await gw.kit.runtime.pool.query(`select count(*)::int n from deadlines.jobs`)).rows[0].n as number;
    const before = await count();
    expect(before).toBe(first.jobsOpened);

    const second = await runDaily();
    expect(second.jobsOpened).toBe(0);
    expect(await count()).toBe(before);
    const ev = await gw.kit.runtime.pool.query(`select count(*)::int n from deadlines.outbox where type = 'deadlines.job_opened'`);
    expect(ev.rows[0].n).toBe(before);
  });

  it('the board shows the job in its column; My work (mine) shows it to its accountant', async () => {
    const board = await call('accountant', 'GET', '/api/deadlines/jobs/board?kind=year_end_accounts&mine=true');
    expect(board.statusCode, board.body).toBe(200);
    const cols = board.json().columns as Array<{ stage: string; jobs: Array<{ id: string }> }>;
    expect(cols.map((c) => c.stage)).toEqual([
      'Records requested',
      'Records received',
      'In preparation',
      'Review',
      'Sent to client for approval',
      'Approved',
    ]);
    expect(cols[0]!.jobs.map((j) => j.id)).toEqual([accountsJobId]);
    expect((await jobsOf('accountant', 'mine=true')).jobs.every((j) => j.assignee_id === p.accountant.id)).toBe(true);
    expect((await jobsOf('staff', 'overdue=true')).jobs).toEqual([]);
  });

  it('a client request open for the deadline shows the job waiting on the client until it is completed', async () => {
    const job = (await jobsOf('accountant', `client_id=${ownedId}&kind=year_end_accounts`)).jobs[0]!;
    const send = (type: 'requests.request_opened' | 'requests.request_completed', data: EventData<typeof type>) =>
      gw.kit.runtime.bus.publish(TOPICS.requests, [{ key: ownedId, envelope: makeEnvelope(type, data, { kind: 'system', id: null }) }]);
    const requestId = randomUUID();
    const ref = { requestId, clientId: ownedId, title: 'Year-end records' };
    await send('requests.request_opened', { ...ref, dueOn: '2026-12-01', deadlineId: job.deadline_id, assigneeId: null, items: 3 });
    await waitFor(async () => (await jobsOf('accountant', `client_id=${ownedId}&waiting_on_client=true`)).jobs.length === 1, 'waiting');
    expect((await jobsOf('accountant', `client_id=${ownedId}&waiting_on_client=true`)).jobs[0]).toMatchObject({
      id: job.id,
      waiting_on_client: true,
      waiting_request: 'Year-end records',
    });
    // The same event twice (Kafka delivers at least once) and a second request: completing one of them
    // leaves the job waiting on the other; the count never goes below nought.
    await send('requests.request_opened', { ...ref, dueOn: '2026-12-01', deadlineId: job.deadline_id, assigneeId: null, items: 3 });
    const second = { requestId: randomUUID(), clientId: ownedId, title: 'Bank statements' };
    await send('requests.request_opened', { ...second, dueOn: '2026-12-05', deadlineId: job.deadline_id, assigneeId: null, items: 1 });
    const openCount = async () =>
      (await gw.kit.runtime.pool.query('select open_requests as n from deadlines.jobs where id = $1', [job.id])).rows[0].n as number;
    await waitFor(async () => (await openCount()) === 2, 'two open requests');
    await send('requests.request_completed', ref);
    await send('requests.request_completed', ref);
    await waitFor(async () => (await openCount()) === 1, 'one open request');
    expect((await jobsOf('accountant', `client_id=${ownedId}&waiting_on_client=true`)).jobs.map((j) => j.id)).toEqual([job.id]);
    await send('requests.request_completed', second);
    await waitFor(
      async () => (await jobsOf('accountant', `client_id=${ownedId}&waiting_on_client=true`)).jobs.length === 0,
      'no longer waiting',
    );
    expect(await openCount()).toBe(0);
    expect((await jobsOf('accountant', `client_id=${ownedId}&waiting_on_client=false`)).jobs.map((j) => j.id)).toContain(job.id);
  });

  it('moving to Review assigns the reviewer; Filed needs the reference, then marks the deadline done in the same transaction', async () => {
    const move = (c: Caller, body: object) => call(c, 'POST', `/api/deadlines/jobs/${accountsJobId}/move`, body);
    const unknown = await move('accountant', { stage: 'Nowhere' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe('This job has no such stage');
    const review = await move('accountant', { stage: 'Review' });
    expect(review.statusCode, review.body).toBe(200);
    const job = (review.json() as JobDetail).job;
    expect(job.stage).toBe('Review');
    expect(job.reviewer_id).toBe(p.manager.id);

    const noRef = await move('accountant', { stage: 'Filed' });
    expect(noRef.statusCode).toBe(400);
    expect(noRef.json().error.message).toBe('Enter the filing reference to move the job to Filed');

    const filed = await move('accountant', { stage: 'Filed', reference: 'CH-123456', filed_on: '2026-11-20' });
    expect(filed.statusCode, filed.body).toBe(200);
    const detail = filed.json() as JobDetail;
    expect(detail.job.status).toBe('filed');
    expect(detail.deadline).toMatchObject({ done: true, reference: 'CH-123456' });
    const { rows } = await gw.kit.runtime.pool.query(
      `select filed_on::text, reference, done_by, done_at is not null as done from deadlines.deadlines where id = $1`,
      [detail.job.deadline_id],
    );
    expect(rows[0]).toEqual({ filed_on: '2026-11-20', reference: 'CH-123456', done_by: p.accountant.id, done: true });
    const types = await gw.kit.runtime.pool.query(
      `select type from deadlines.outbox where type in ('deadlines.job_filed', 'deadlines.deadline_done', 'deadlines.job_stage_moved') order by id`,
    );
    expect(types.rows.map((r) => r.type)).toEqual([
      'deadlines.job_stage_moved',
      'deadlines.deadline_done',
      'deadlines.job_filed',
      'deadlines.job_stage_moved',
    ]);
    expect((await move('accountant', { stage: 'Review' })).statusCode).toBe(409);
    // Filed jobs leave the open list.
    expect((await jobsOf('adminSession', `client_id=${ownedId}&kind=year_end_accounts`)).jobs).toEqual([]);
  });

  it('checklist, notes and time on a job; a timer starts and stops into an entry', async () => {
    const job = (await jobsOf('accountant', `client_id=${ownedId}&status=all`)).jobs[0]!;
    expect(job.id).toBe(accountsJobId);
    const tick = await call('accountant', 'POST', `/api/deadlines/jobs/${job.id}/checklist`, { index: 0, done: true });
    expect(tick.statusCode, tick.body).toBe(200);
    expect((tick.json() as JobDetail).checklist[0]!.done).toBe(true);
    expect((await call('accountant', 'POST', `/api/deadlines/jobs/${job.id}/checklist`, { index: 400, done: true })).statusCode).toBe(404);
    const note = await call('accountant', 'POST', `/api/deadlines/jobs/${job.id}/notes`, { text: 'Chased the bank statements' });
    expect((note.json() as JobDetail).notes[0]!.text).toBe('Chased the bank statements');
    const future = await call('accountant', 'POST', `/api/deadlines/jobs/${job.id}/time`, { minutes: 30, worked_on: '2026-12-01' });
    expect(future.statusCode).toBe(400);
    const start = await call('accountant', 'POST', `/api/deadlines/jobs/${job.id}/timer`);
    expect(start.json().timer.job_id).toBe(job.id);
    expect((await call('accountant', 'POST', `/api/deadlines/jobs/${job.id}/timer`)).statusCode).toBe(409);
    const stop = await call('accountant', 'DELETE', '/api/deadlines/jobs/timer');
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json().entry).toMatchObject({ minutes: 1, source: 'timer', worked_on: TODAY });
    expect((await call('accountant', 'DELETE', '/api/deadlines/jobs/timer')).statusCode).toBe(404);
    const detail = (await call('accountant', 'GET', `/api/deadlines/jobs/${job.id}`)).json() as JobDetail;
    expect(detail.job.used_minutes).toBe(1);
  });

  it('profitability: £150 a month, 4.5 h at £40 → cost £180, margin -£30, £33.33 an hour; CSV too', async () => {
    const rate = await call('manager', 'PUT', `/api/deadlines/jobs/staff/${p.accountant.id}`, { cost_rate_pence: 4000 });
    expect(rate.statusCode, rate.body).toBe(200);
    const job = { id: accountsJobId };
    for (const minutes of [180, 90]) {
      const r = await call('accountant', 'POST', `/api/deadlines/jobs/${job.id}/time`, { minutes, worked_on: '2026-10-15' });
      expect(r.statusCode, r.body).toBe(200);
    }
    const r = await call('manager', 'GET', '/api/deadlines/jobs/profitability?month=2026-10');
    expect(r.statusCode, r.body).toBe(200);
    const report = r.json() as ProfitabilityReply;
    expect(report.clients.find((c) => c.client_id === ownedId)).toEqual({
      client_id: ownedId,
      client_name: 'Owned Trading Ltd',
      package_name: 'Starter',
      fee_pence: 15000,
      minutes: 270,
      cost_pence: 18000,
      margin_pence: -3000,
      effective_rate_pence: 3333,
    });
    expect(report.packages.find((x) => x.package_name === 'Starter')).toMatchObject({ margin_pence: -3000 });
    const csv = await call('manager', 'GET', '/api/deadlines/jobs/profitability.csv?month=2026-10');
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('Owned Trading Ltd,Starter,150.00,4.50,180.00,-30.00,33.33');
    expect((await call('manager', 'GET', '/api/deadlines/jobs/profitability?month=2026-13')).statusCode).toBe(400);
    const ev = await gw.kit.runtime.pool.query(`select count(*)::int n from deadlines.outbox where type = 'deadlines.time_recorded'`);
    expect(ev.rows[0].n).toBe(3);
  });

  it('profitability per month follows the fee history: an upgrade counts in its London month, a cancelled client is paid up to its month', async () => {
    const clientId = randomUUID();
    const at = (occurredAt: string, d: Partial<EventData<'crm.client_upserted'>>) =>
      publishClient({ clientId, companyName: 'Fee History Ltd', packageName: 'Starter', ...d }, occurredAt);
    await at('2026-07-01T09:00:00Z', {});
    // 23:30 UTC on 31 July is 00:30 on 1 August in London (BST): August's fee, not July's.
    await at('2026-07-31T23:30:00Z', { packageName: 'Growth', monthlyFee: 200 });
    await at('2026-08-05T09:00:00Z', { packageName: 'Growth', monthlyFee: 200 }); // no change: no row
    await at('2026-09-10T09:00:00Z', { packageName: 'Growth', monthlyFee: 200, subscriptionStatus: 'cancelled' });
    const history = async () =>
      (
        await gw.kit.runtime.pool.query(
          `select case when effective_at = '-infinity' then '-infinity' else to_char(effective_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') end as at, package_name, monthly_fee_pence as fee, subscription_status as status
           from deadlines.client_fees where client_id = $1 order by effective_at`,
          [clientId],
        )
      ).rows;
    await waitFor(async () => (await history()).some((r) => r.status === 'cancelled'), 'fee history');
    expect((await history()).map((r) => [r.at, r.package_name, r.fee, r.status])).toEqual([
      ['-infinity', 'Starter', 10000, 'active'],
      ['2026-07-31T23:30:00Z', 'Growth', 20000, 'active'],
      ['2026-09-10T09:00:00Z', 'Growth', 20000, 'cancelled'],
    ]);
    const feeIn = async (month: string) => {
      const r = await call('manager', 'GET', `/api/deadlines/jobs/profitability?month=${month}`);
      expect(r.statusCode, r.body).toBe(200);
      const row = (r.json() as ProfitabilityReply).clients.find((c) => c.client_id === clientId);
      return row ? [row.package_name, row.fee_pence] : null;
    };
    // Before the first fee heard of, that fee (decision 661); then month by month.
    expect(await feeIn('2026-06')).toEqual(['Starter', 10000]);
    expect(await feeIn('2026-07')).toEqual(['Starter', 10000]);
    expect(await feeIn('2026-08')).toEqual(['Growth', 20000]);
    expect(await feeIn('2026-09')).toEqual(['Growth', 20000]);
    expect(await feeIn('2026-10')).toBeNull();
  });

  it('capacity: four 6-hour jobs in one week, 20 h capacity and a day of leave → 24 h budgeted, 16 h available, over-allocated', async () => {
    const set = await call('manager', 'PUT', `/api/deadlines/jobs/staff/${p.staff.id}`, {
      weekly_capacity_minutes: 1200,
      leave: ['2027-01-06'],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().member.leave).toEqual(['2027-01-06']);
    for (const due of ['2027-01-04', '2027-01-05', '2027-01-07', '2027-01-08'])
      await gw.kit.runtime.pool.query(
        `insert into deadlines.jobs (client_id, kind, title, stages, stage, checklist, due_on, assignee_id, reviewer_role, budget_minutes)
         values ($1, 'ad_hoc', 'Cash flow forecast', '["To do","Filed"]', 'To do', '[]', $2, $3, 'manager', 360)`,
        [otherId, due, p.staff.id],
      );
    const r = await call('manager', 'GET', '/api/deadlines/jobs/capacity?from=2027-01-04');
    expect(r.statusCode, r.body).toBe(200);
    const cap = r.json() as CapacityReply;
    expect(cap.weeks).toHaveLength(12);
    const week = cap.people.find((x) => x.user_id === p.staff.id)!.weeks[0]!;
    expect(week).toEqual({
      week_start: '2027-01-04',
      budgeted_minutes: 1440,
      available_minutes: 960,
      leave_days: 1,
      jobs: 4,
      over_allocated: true,
    });
    expect(cap.team[0]!.budgeted_minutes).toBeGreaterThanOrEqual(1440);
    // An accountant sees only their own row.
    const own = (await call('accountant', 'GET', '/api/deadlines/jobs/capacity')).json() as CapacityReply;
    expect(own.people.map((x) => x.user_id)).toEqual([p.accountant.id]);
  });

  it('templates: everyone who works jobs reads them; managers change them; the last stage must be Filed', async () => {
    const list = await call('accountant', 'GET', '/api/deadlines/jobs/templates');
    expect(list.json().templates).toHaveLength(9);
    const body = {
      stages: [
        { name: 'To do', checklist: ['Agree the scope'] },
        { name: 'Filed', checklist: [] },
      ],
      budget_minutes: 120,
      reviewer_role: 'manager',
      lead_days: 14,
      target_days_before: 0,
    };
    expect(
      (
        await call('manager', 'PUT', '/api/deadlines/jobs/templates/ad_hoc', {
          ...body,
          stages: [
            { name: 'A', checklist: [] },
            { name: 'B', checklist: [] },
          ],
        })
      ).statusCode,
    ).toBe(400);
    const ok = await call('manager', 'PUT', '/api/deadlines/jobs/templates/ad_hoc', body);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().template).toMatchObject({ kind: 'ad_hoc', budget_minutes: 120, customised: true });
    expect((await call('staff', 'PUT', '/api/deadlines/jobs/templates/ad_hoc', body)).statusCode).toBe(403);
  });

  it('reports of delivery: the accounts filed before their date count on time in December; jobs by stage, days per stage, work in progress', async () => {
    const r = await call('manager', 'GET', '/api/deadlines/jobs/delivery?from=2026-11&to=2026-12');
    expect(r.statusCode, r.body).toBe(200);
    const d = r.json() as DeliveryReply;
    expect(d.months.find((m) => m.month === '2026-12')).toMatchObject({ on_time: 1, late: 0 });
    expect(d.by_stage.every((x) => x.jobs > 0)).toBe(true);
    expect(d.days_per_stage.map((x) => x.stage)).toEqual(expect.arrayContaining(['Records requested', 'Review']));
    expect(d.work_in_progress.find((w) => w.user_id === p.staff.id)).toMatchObject({ jobs: 4, budget_minutes: 1440 });
    expect((await call('manager', 'GET', '/api/deadlines/jobs/delivery?from=2026-12&to=2026-11')).statusCode).toBe(400);
    expect((await call('accountant', 'GET', '/api/deadlines/jobs/delivery?from=2026-11&to=2026-12')).statusCode).toBe(403);
  });

  it('recurring bookkeeping on the 28th opens one job within its lead days; a second run opens nothing', async () => {
    const set = await call('accountant', 'PUT', `/api/deadlines/jobs/schedules/${ownedId}/bookkeeping`, { day_of_month: 28, active: true });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().schedules).toEqual([
      { client_id: ownedId, kind: 'bookkeeping', day_of_month: 28, active: true, next_due_on: '2026-11-28' },
    ]);
    expect(
      (await call('accountant', 'PUT', `/api/deadlines/jobs/schedules/${otherId}/bookkeeping`, { day_of_month: 28, active: true }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('accountant', 'PUT', `/api/deadlines/jobs/schedules/${ownedId}/bookkeeping`, { day_of_month: 31, active: true }))
        .statusCode,
    ).toBe(400);
    expect((await runDaily()).jobsOpened).toBe(1);
    const books = (await jobsOf('accountant', `client_id=${ownedId}&kind=bookkeeping`)).jobs;
    expect(books).toHaveLength(1);
    expect(books[0]).toMatchObject({
      due_on: '2026-11-28',
      statutory_due_on: null,
      deadline_id: null,
      assignee_id: p.accountant.id,
      stage: 'To do',
    });
    expect((await runDaily()).jobsOpened).toBe(0);
  });
});

describe('who may see and change jobs', () => {
  it.each([
    ['adminSession', 200],
    ['manager', 200],
    ['staff', 200],
    ['accountant', 200],
    ['client', 403],
  ] as const)('%s lists jobs: %i', async (who, status) => {
    expect((await call(who, 'GET', '/api/deadlines/jobs')).statusCode).toBe(status);
  });

  it("an accountant sees and changes only their clients' jobs; staff see every client's", async () => {
    const others = (await jobsOf('staff', `client_id=${otherId}`)).jobs;
    expect(others.length).toBeGreaterThan(0);
    expect((await jobsOf('accountant', `client_id=${otherId}`)).jobs).toEqual([]);
    expect((await jobsOf('accountant')).jobs.every((j) => j.client_id === ownedId)).toBe(true);
    const id = others[0]!.id;
    expect((await call('accountant', 'GET', `/api/deadlines/jobs/${id}`)).statusCode).toBe(403);
    expect((await call('accountant', 'POST', `/api/deadlines/jobs/${id}/move`, { stage: 'Review' })).statusCode).toBe(403);
    expect((await call('accountant', 'POST', `/api/deadlines/jobs/${id}/time`, { minutes: 5, worked_on: TODAY })).statusCode).toBe(403);
    expect((await call('otherAccountant', 'GET', `/api/deadlines/jobs/${id}`)).statusCode).toBe(200);
    const reassign = await call('staff', 'PATCH', `/api/deadlines/jobs/${id}`, { assignee_id: p.staff.id, waiting_on_client: true });
    expect(reassign.statusCode, reassign.body).toBe(200);
    expect((reassign.json() as JobDetail).job).toMatchObject({ assignee_id: p.staff.id, waiting_on_client: true });
    expect((await call('staff', 'GET', `/api/deadlines/jobs/${randomUUID()}`)).statusCode).toBe(404);
  });

  it.each([
    ['adminSession', 200],
    ['manager', 200],
    ['staff', 403],
    ['accountant', 403],
    ['client', 403],
  ] as const)('%s reads staff rates and profitability: %i', async (who, status) => {
    expect((await call(who, 'GET', '/api/deadlines/jobs/staff')).statusCode).toBe(status);
    expect((await call(who, 'GET', '/api/deadlines/jobs/profitability?month=2026-11')).statusCode).toBe(status);
  });
});
