import { ensureInitialAdmin } from '@countinghouse/identity';
import { makeEnvelope } from '@countinghouse/kit';
import { createTestKit, waitFor } from '@countinghouse/kit/testing';
import {
  TOPICS,
  WORKSPACE_MESSAGES,
  WORKSPACE_ROUTES,
  type Deadline,
  type EventData,
  type NextDeadlinesReply,
  type TaxProfileInput,
  type WorkReply,
} from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeAllInOne } from '../../../gateway/src/compose.js';
import { ADMIN, bearer, login, makePerson, type Person, type TestGateway } from '../../../gateway/test/helpers.js';

// Deadlines in the workspace (issue 26): overdue first in every view, done with a filing record, undo,
// the Done filter, "filed by the previous agent" before the engagement start, and My work's deadlines.
// Thursday 26 November 2026: this week ends Sunday 29 November, next week Sunday 6 December.
const TODAY = '2026-11-26';
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

type Caller = keyof typeof p | 'adminSession';
const tokenOf = (c: Caller) => (c === 'adminSession' ? adminSession : p[c].token);
const call = (c: Caller, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  gw.app.inject({ method, url, headers: bearer(tokenOf(c)), payload });
const list = async (c: Caller, query: string) => {
  const r = await call(c, 'GET', `/api/deadlines?${query}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json().deadlines as Deadline[];
};

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
  p.manager = await makePerson(gw, 'dw.manager@x.co.uk', ['manager']);
  p.staff = await makePerson(gw, 'dw.staff@x.co.uk', ['staff']);
  p.accountant = await makePerson(gw, 'dw.acc@x.co.uk', ['accountant']);
  p.otherAccountant = await makePerson(gw, 'dw.acc2@x.co.uk', ['accountant']);
  p.client = await makePerson(gw, 'dw.client@x.co.uk', ['client']);
  await publishClient({ clientId: ownedId, companyName: 'Owned Trading Ltd', assignedAccountantId: p.accountant.id });
  await publishClient({ clientId: otherId, companyName: 'Other Books Ltd', assignedAccountantId: p.otherAccountant.id });
  for (const id of [ownedId, otherId])
    await waitFor(async () => (await call('adminSession', 'GET', `/api/deadlines/clients/${id}`)).statusCode === 200, 'directory');
  // Owned: its confirmation statement (review date 5 Nov) fell due on 19 Nov, before the practice took it
  // on (21 Nov). Other: review date 20 Nov, due 4 Dec (next week).
  const a = await call(
    'adminSession',
    'PUT',
    `/api/deadlines/clients/${ownedId}`,
    profile({ confirmation_review_date: '2026-11-05', engagement_start_on: '2026-11-21', ard_day: 31, ard_month: 3 }),
  );
  expect(a.statusCode, a.body).toBe(200);
  const b = await call(
    'adminSession',
    'PUT',
    `/api/deadlines/clients/${otherId}`,
    profile({ confirmation_review_date: '2026-11-20', ard_day: 31, ard_month: 3 }),
  );
  expect(b.statusCode, b.body).toBe(200);
}, 60_000);
afterAll(async () => gw?.close());

const confirmation = async (clientId: string) =>
  (await list('adminSession', `window=all&client_id=${clientId}&kind=confirmation_statement`))[0]!;

describe('deadlines in the workspace', () => {
  it('the tax profile keeps the engagement start date', async () => {
    const r = await call('staff', 'GET', `/api/deadlines/clients/${ownedId}`);
    expect(r.json().profile.engagement_start_on).toBe('2026-11-21');
  });

  it('overdue deadlines show first in every window, the default 90 days too', async () => {
    const overdue = await confirmation(ownedId);
    expect(overdue).toMatchObject({ due_on: '2026-11-19', status: 'overdue' });
    for (const query of ['', 'window=30', 'window=60', 'window=all']) {
      const ds = await list('adminSession', query);
      expect(ds[0]?.id, query).toBe(overdue.id);
      expect(ds.map((d) => d.due_on)).toEqual([...ds.map((d) => d.due_on)].sort());
    }
  });

  it('the clients list’s next deadline: each visible client’s earliest open one, overdue counted', async () => {
    const url = `${WORKSPACE_ROUTES.nextDeadlines}?client_ids=${ownedId},${otherId},${randomUUID()}`;
    const all = (await call('staff', 'GET', url)).json() as NextDeadlinesReply;
    const byClient = new Map(all.next.map((n) => [n.client_id, n]));
    expect(byClient.get(ownedId)).toMatchObject({ kind: 'confirmation_statement', due_on: '2026-11-19', overdue: true, overdue_count: 1 });
    expect(byClient.get(otherId)).toMatchObject({ due_on: '2026-12-04', overdue: false, overdue_count: 0 });
    expect(all.next).toHaveLength(2);
    const mine = (await call('accountant', 'GET', url)).json() as NextDeadlinesReply;
    expect(mine.next.map((n) => n.client_id)).toEqual([ownedId]);
    expect((await call('client', 'GET', url)).statusCode).toBe(403);
  });

  it('My work: an accountant sees their clients’ overdue and coming deadlines; everyone is for staff', async () => {
    const r = await call('accountant', 'GET', WORKSPACE_ROUTES.workDeadlines);
    expect(r.statusCode, r.body).toBe(200);
    const w = r.json() as WorkReply;
    expect(w).toMatchObject({ who: 'mine', today: TODAY });
    expect(w.items.map((i) => [i.client_name, i.due_on, i.bucket])).toEqual([['Owned Trading Ltd', '2026-11-19', 'overdue']]);
    expect(w.items[0]).toMatchObject({ kind: 'deadline', title: expect.stringContaining('Confirmation statement') });
    const other = (await call('otherAccountant', 'GET', WORKSPACE_ROUTES.workDeadlines)).json() as WorkReply;
    expect(other.items.map((i) => [i.client_name, i.due_on, i.bucket])).toEqual([['Other Books Ltd', '2026-12-04', 'next_week']]);
    expect((await call('accountant', 'GET', `${WORKSPACE_ROUTES.workDeadlines}?who=everyone`)).statusCode).toBe(403);
    const everyone = (await call('manager', 'GET', `${WORKSPACE_ROUTES.workDeadlines}?who=everyone`)).json() as WorkReply;
    expect(everyone.items.map((i) => i.bucket)).toEqual(['overdue', 'next_week']);
    expect((await call('client', 'GET', WORKSPACE_ROUTES.workDeadlines)).statusCode).toBe(403);
  });

  it('"filed by the previous agent" only before the engagement start; a filing date never in the future', async () => {
    const owned = await confirmation(ownedId);
    const other = await confirmation(otherId);
    const notStarted = await call('staff', 'POST', WORKSPACE_ROUTES.deadlineDone(other.id), { filed_by: 'previous_agent' });
    expect(notStarted.statusCode).toBe(400);
    expect(notStarted.json().error.message).toBe(WORKSPACE_MESSAGES.previousAgentNeedsStart);
    const future = await call('staff', 'POST', WORKSPACE_ROUTES.deadlineDone(owned.id), { filed_on: '2026-11-27' });
    expect(future.statusCode).toBe(400);
    expect(future.json().error.message).toBe(WORKSPACE_MESSAGES.filedInFuture);
    const ancient = await call('staff', 'POST', WORKSPACE_ROUTES.deadlineDone(owned.id), { filed_on: '0000-01-01' });
    expect(ancient.statusCode).toBe(400);
    expect(ancient.json().error.message).toBe(WORKSPACE_MESSAGES.filedTooEarly);
    // Another accountant's client: refused.
    expect((await call('otherAccountant', 'POST', WORKSPACE_ROUTES.deadlineDone(owned.id), {})).statusCode).toBe(403);
    const r = await call('accountant', 'POST', WORKSPACE_ROUTES.deadlineDone(owned.id), {
      filed_by: 'previous_agent',
      filed_on: '2026-11-18',
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().deadline).toMatchObject({
      status: 'done',
      filed_on: '2026-11-18',
      filed_by_previous_agent: true,
      done_by_id: p.accountant.id,
      done_by_name: expect.any(String),
    });
  });

  it('done with a reference and who filed it; the Done filter lists it; undo opens it again, announced', async () => {
    const other = await confirmation(otherId);
    const afterStart = await call('otherAccountant', 'POST', WORKSPACE_ROUTES.deadlineDone(other.id), {
      filed_by: 'practice',
      reference: ' CH-TX-0042 ',
    });
    expect(afterStart.statusCode, afterStart.body).toBe(200);
    expect(afterStart.json().deadline).toMatchObject({ filed_on: TODAY, reference: 'CH-TX-0042', filed_by_previous_agent: false });
    const done = await list('adminSession', 'status=done');
    expect(done.map((d) => d.client_name)).toEqual(['Other Books Ltd', 'Owned Trading Ltd']);
    expect(done.every((d) => d.status === 'done')).toBe(true);
    const open = await list('adminSession', 'window=all');
    expect(open.some((d) => d.id === other.id)).toBe(false);
    // Undo: a client and another accountant cannot; the assigned accountant can.
    expect((await call('client', 'POST', WORKSPACE_ROUTES.deadlineUndo(other.id))).statusCode).toBe(403);
    expect((await call('accountant', 'POST', WORKSPACE_ROUTES.deadlineUndo(other.id))).statusCode).toBe(403);
    const undo = await call('otherAccountant', 'POST', WORKSPACE_ROUTES.deadlineUndo(other.id));
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json()).toMatchObject({
      message: WORKSPACE_MESSAGES.deadlineUndone,
      deadline: { status: 'due_soon', done_at: null, filed_on: null, reference: null },
    });
    expect((await call('otherAccountant', 'POST', WORKSPACE_ROUTES.deadlineUndo(other.id))).statusCode).toBe(409);
    const ev = await gw.kit.runtime.pool.query(`select envelope from deadlines.outbox where type = 'deadlines.deadline_reopened'`);
    expect(ev.rows.map((r) => r.envelope.data)).toEqual([
      expect.objectContaining({ deadlineId: other.id, clientId: otherId, reopenedByName: expect.any(String) }),
    ]);
    const doneEvents = await gw.kit.runtime.pool.query(
      `select envelope from deadlines.outbox where type = 'deadlines.deadline_done' order by id`,
    );
    expect(doneEvents.rows.map((r) => [r.envelope.data.filedByPreviousAgent, r.envelope.data.reference])).toEqual([
      [true, null],
      [false, 'CH-TX-0042'],
    ]);
  });
});
