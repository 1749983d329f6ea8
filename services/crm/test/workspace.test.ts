import { makeEnvelope } from '@countinghouse/kit';
import { waitFor } from '@countinghouse/kit/testing';
import {
  CRM_ROUTES,
  IDENTIFIER_MESSAGES,
  TOPICS,
  WORKSPACE_MESSAGES,
  WORKSPACE_ROUTES,
  type ClientRecord,
  type TimelineReply,
  type WorkReply,
} from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, SAMPLES, startDocumentsGateway, type DocumentsGateway } from '../../documents/test/helpers.js';
import { londonToday } from '../src/use-cases/workspace.js';
import { announceRole, bearer, login, makePerson, type Person } from './helpers.js';
import { acceptTerms } from '../../billing/test/helpers.js';

// The workspace's crm half (issue 26) through the all-in-one app on a real PostgreSQL, events on the
// in-process bus: the client record, identifiers, the Timeline, notes, My work's tasks, team tasks.
let gw: DocumentsGateway;
let adminSession = '';
const p = {} as Record<'admin' | 'manager' | 'staff' | 'accountant' | 'otherAccountant' | 'mlro' | 'client', Person>;
let clientId = '';
let otherClientId = '';

type Caller = keyof typeof p | 'adminSession';
const CALLERS: Caller[] = ['adminSession', 'admin', 'manager', 'staff', 'accountant', 'otherAccountant', 'mlro', 'client'];
const tokenOf = (c: Caller) => (c === 'adminSession' ? adminSession : p[c].token);
const call = (method: 'GET' | 'POST' | 'PUT', url: string, caller: Caller, payload?: object) =>
  gw.app.inject({ method, url, headers: bearer(tokenOf(caller)), payload });

const day = (offset: number) => {
  const d = new Date(`${londonToday()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

beforeAll(async () => {
  gw = await startDocumentsGateway();
  adminSession = (await login(gw.app)).json().session_token;
  p.admin = await makePerson(gw, 'ws.admin@x.co.uk', ['admin']);
  p.manager = await makePerson(gw, 'ws.manager@x.co.uk', ['manager']);
  p.staff = await makePerson(gw, 'ws.staff@x.co.uk', ['staff']);
  p.accountant = await makePerson(gw, 'ws.acc@x.co.uk', ['accountant']);
  p.otherAccountant = await makePerson(gw, 'ws.acc2@x.co.uk', ['accountant']);
  p.mlro = await makePerson(gw, 'ws.mlro@x.co.uk', ['mlro']);
  p.client = await makePerson(gw, 'ws.client@x.co.uk', ['client']);
  await announceRole(gw, p.accountant.id, 'accountant', true, 'Priya Shah');
  await announceRole(gw, p.otherAccountant.id, 'accountant', true, 'Owen Davies');
  await waitFor(async () => {
    const { rows } = await gw.kit.runtime.pool.query(`select 1 from crm.team_members where user_id = any($1)`, [
      [p.accountant.id, p.otherAccountant.id],
    ]);
    return rows.length === 2;
  }, 'accountants known to crm');
  const create = async (payload: object) => {
    const r = await call('POST', CRM_ROUTES.clients, 'adminSession', payload);
    expect(r.statusCode, r.body).toBe(201);
    return r.json().id as string;
  };
  clientId = await create({
    company_name: 'Bright Spark Electrical Ltd',
    contact_email: 'sarah@brightspark.co.uk',
    assigned_accountant_id: p.accountant.id,
  });
  otherClientId = await create({
    company_name: 'Holloway & Partners',
    contact_email: 'james@holloway.co.uk',
    assigned_accountant_id: p.otherAccountant.id,
  });
}, 60_000);
afterAll(async () => gw?.close());

describe('the client record', () => {
  it('staff see any client; an accountant only their own (403 for another’s); clients and an MLRO alone never', async () => {
    const expected: Record<Caller, number> = {
      adminSession: 200,
      admin: 200,
      manager: 200,
      staff: 200,
      accountant: 200,
      otherAccountant: 403,
      mlro: 403,
      client: 403,
    };
    for (const c of CALLERS) {
      const r = await call('GET', WORKSPACE_ROUTES.clientRecord(clientId), c);
      expect(r.statusCode, `${c}: ${r.body}`).toBe(expected[c]);
    }
    const refused = await call('GET', WORKSPACE_ROUTES.clientRecord(otherClientId), 'accountant');
    expect(refused.json().error).toEqual({ code: 'FORBIDDEN', message: WORKSPACE_MESSAGES.notYourClient });
    const record = (await call('GET', WORKSPACE_ROUTES.clientRecord(clientId), 'accountant')).json() as ClientRecord;
    expect(record).toMatchObject({
      client: { id: clientId, company_name: 'Bright Spark Electrical Ltd', assigned_accountant_name: 'Priya Shah' },
      badges: { due_diligence: 'outstanding', letter: 'none', overdue_deadlines: 0 },
      can: { edit: false, add_note: true },
    });
    expect((await call('GET', WORKSPACE_ROUTES.clientRecord(randomUUID()), 'staff')).statusCode).toBe(404);
  });

  it('identifiers: staff save them normalised; a wrong check digit or format is refused with the reason', async () => {
    const good = {
      utr: '22345 67890',
      vat_number: 'GB 101 7476 96',
      paye_reference: '123/ab45678',
      accounts_office_reference: '123PW12345678',
      nino: 'ab 12 34 56 c',
      registered_office: ' 1 High Street, Leeds LS1 1AA ',
      sic_codes: ['43210'],
    };
    const saved = await call('PUT', WORKSPACE_ROUTES.clientIdentifiers(clientId), 'staff', good);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().identifiers).toMatchObject({
      utr: '2234567890',
      vat_number: '101747696',
      paye_reference: '123/AB45678',
      accounts_office_reference: '123PW12345678',
      nino: 'AB123456C',
      registered_office: '1 High Street, Leeds LS1 1AA',
      sic_codes: ['43210'],
      updated_by_name: expect.any(String),
    });
    for (const [field, value, message] of [
      ['utr', '1234567890', IDENTIFIER_MESSAGES.utrCheck],
      ['utr', '12345', IDENTIFIER_MESSAGES.utrFormat],
      ['vat_number', 'GB101747697', IDENTIFIER_MESSAGES.vatCheck],
      ['nino', 'QQ123456C', IDENTIFIER_MESSAGES.ninoPrefix],
      ['nino', 'AB123456E', IDENTIFIER_MESSAGES.ninoFormat],
      ['accounts_office_reference', '123PX12345678', IDENTIFIER_MESSAGES.accountsOfficeCheck],
      ['paye_reference', '123AB45678', IDENTIFIER_MESSAGES.payeFormat],
    ] as const) {
      const r = await call('PUT', WORKSPACE_ROUTES.clientIdentifiers(clientId), 'manager', { ...good, [field]: value });
      expect(r.statusCode, `${field} ${value}`).toBe(400);
      expect(r.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message, details: [{ path: `/${field}`, message }] });
    }
    // Nothing refused was stored.
    const record = (await call('GET', WORKSPACE_ROUTES.clientRecord(clientId), 'staff')).json() as ClientRecord;
    expect(record.identifiers.utr).toBe('2234567890');
    // Only staff edit them.
    for (const c of ['accountant', 'otherAccountant', 'mlro', 'client'] as const)
      expect((await call('PUT', WORKSPACE_ROUTES.clientIdentifiers(clientId), c, good)).statusCode, c).toBe(403);
    // Clearing one.
    const cleared = await call('PUT', WORKSPACE_ROUTES.clientIdentifiers(clientId), 'admin', { ...good, nino: '' });
    expect(cleared.json().identifiers.nino).toBeNull();
  });

  it('notes: staff and the assigned accountant add them to the Timeline; another accountant and a client cannot', async () => {
    const r = await call('POST', WORKSPACE_ROUTES.clientNotes(clientId), 'accountant', { text: 'Called about the VAT return' });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().entry).toMatchObject({ kind: 'note', summary: 'Called about the VAT return', actor_name: expect.any(String) });
    expect((await call('POST', WORKSPACE_ROUTES.clientNotes(clientId), 'otherAccountant', { text: 'x' })).statusCode).toBe(403);
    expect((await call('POST', WORKSPACE_ROUTES.clientNotes(clientId), 'client', { text: 'x' })).statusCode).toBe(403);
    expect((await call('POST', WORKSPACE_ROUTES.clientNotes(clientId), 'staff', { text: '   ' })).statusCode).toBe(400);
    const t = (await call('GET', WORKSPACE_ROUTES.clientTimeline(clientId), 'manager')).json() as TimelineReply;
    expect(t.entries.map((e) => e.kind)).toContain('note');
    // A client added by staff starts its Timeline there.
    expect(t.entries.at(-1)).toMatchObject({ kind: 'client_created', summary: 'Client added: Bright Spark Electrical Ltd' });
    expect((await call('GET', WORKSPACE_ROUTES.clientTimeline(clientId), 'otherAccountant')).statusCode).toBe(403);
    expect((await call('GET', WORKSPACE_ROUTES.clientTimeline(clientId), 'client')).statusCode).toBe(403);
  });

  it('badges follow the services’ events: due diligence approved, letter awaiting signature, overdue deadlines', async () => {
    const publish = (topic: string, envelope: ReturnType<typeof makeEnvelope>) =>
      gw.kit.runtime.bus.publish(topic, [{ key: clientId, envelope }]);
    const deadlineId = randomUUID();
    await publish(
      TOPICS.deadlines,
      makeEnvelope(
        'deadlines.deadline_overdue',
        {
          deadlineId,
          clientId,
          clientName: 'Bright Spark Electrical Ltd',
          kind: 'vat_return',
          period: 'Quarter ended 31 Aug 2026',
          dueOn: day(-3),
          assigneeId: p.accountant.id,
        },
        { kind: 'system', id: null },
      ),
    );
    await publish(
      TOPICS.aml,
      makeEnvelope('aml.file_submitted', { clientId, version: 1, submittedByName: 'Margaret Hale' }, { kind: 'system', id: null }),
    );
    const badges = async () => ((await call('GET', WORKSPACE_ROUTES.clientRecord(clientId), 'staff')).json() as ClientRecord).badges;
    await waitFor(async () => (await badges()).overdue_deadlines === 1 && (await badges()).due_diligence === 'awaiting_approval', 'badges');
    await publish(
      TOPICS.aml,
      makeEnvelope(
        'aml.file_approved',
        {
          clientId,
          clientName: 'Bright Spark Electrical Ltd',
          version: 1,
          riskLevel: 'low',
          dueDiligence: 'standard',
          nextReviewOn: day(365 * 3),
          approvedByName: 'Margaret Hale',
        },
        { kind: 'system', id: null },
      ),
    );
    await publish(
      TOPICS.deadlines,
      makeEnvelope(
        'deadlines.deadline_done',
        {
          deadlineId,
          clientId,
          kind: 'vat_return',
          period: 'Quarter ended 31 Aug 2026',
          dueOn: day(-3),
          doneAt: new Date().toISOString(),
          doneByName: 'Priya Shah',
          filedOn: day(-1),
          reference: '123456789012',
          filedByPreviousAgent: false,
        },
        { kind: 'system', id: null },
      ),
    );
    await waitFor(async () => (await badges()).due_diligence === 'approved' && (await badges()).overdue_deadlines === 0, 'badges cleared');
    const t = (await call('GET', WORKSPACE_ROUTES.clientTimeline(clientId), 'accountant')).json() as TimelineReply;
    expect(t.entries.slice(0, 2).map((e) => [e.kind, e.summary])).toEqual([
      ['deadline_done', 'VAT return and payment Quarter ended 31 Aug 2026 done, reference 123456789012'],
      ['aml_approved', 'Due diligence approved (version 1, Low risk)'],
    ]);
  });
});

describe('tasks for the team and My work', () => {
  let overdueTask = '';
  let otherTask = '';

  beforeAll(async () => {
    const add = async (payload: object) => {
      const r = await call('POST', CRM_ROUTES.tasks, 'adminSession', payload);
      expect(r.statusCode, r.body).toBe(201);
      return r.json().id as string;
    };
    overdueTask = await add({ title: 'Chase bank statements', client_id: clientId, due_date: day(-2) });
    await add({ title: 'Prepare VAT return', client_id: clientId, assignee_id: p.accountant.id, due_date: day(0) });
    await add({ title: 'Far away', client_id: clientId, assignee_id: p.accountant.id, due_date: day(60) });
    otherTask = await add({ title: 'Holloway payroll', client_id: otherClientId, due_date: day(1) });
  });

  it('My work: an accountant sees their clients’ open tasks, overdue first; only staff may ask for everyone’s', async () => {
    const r = await call('GET', WORKSPACE_ROUTES.workTasks, 'accountant');
    expect(r.statusCode, r.body).toBe(200);
    const w = r.json() as WorkReply;
    expect(w.who).toBe('mine');
    expect(w.items.map((i) => [i.title, i.bucket])).toEqual([
      ['Chase bank statements', 'overdue'],
      ['Prepare VAT return', 'this_week'],
    ]);
    const denied = await call('GET', `${WORKSPACE_ROUTES.workTasks}?who=everyone`, 'accountant');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe(WORKSPACE_MESSAGES.everyoneNotAllowed);
    const everyone = (await call('GET', `${WORKSPACE_ROUTES.workTasks}?who=everyone`, 'staff')).json() as WorkReply;
    expect(everyone.items.map((i) => i.title)).toEqual(['Chase bank statements', 'Prepare VAT return', 'Holloway payroll']);
    const staffMine = (await call('GET', WORKSPACE_ROUTES.workTasks, 'staff')).json() as WorkReply;
    expect(staffMine.items).toEqual([]);
    expect((await call('GET', WORKSPACE_ROUTES.workTasks, 'client')).statusCode).toBe(403);
    // An MLRO alone has My work (for the files awaiting approval), with no tasks of theirs here.
    expect(((await call('GET', WORKSPACE_ROUTES.workTasks, 'mlro')).json() as WorkReply).items).toEqual([]);
  });

  it('an accountant completes their client’s task, not another’s; staff reopen; the Timeline says who did it', async () => {
    const denied = await call('POST', WORKSPACE_ROUTES.taskComplete(otherTask), 'accountant');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe(WORKSPACE_MESSAGES.notYourTask);
    expect((await call('POST', WORKSPACE_ROUTES.taskComplete(overdueTask), 'client')).statusCode).toBe(403);
    expect((await call('POST', WORKSPACE_ROUTES.taskComplete(randomUUID()), 'staff')).statusCode).toBe(404);
    const done = await call('POST', WORKSPACE_ROUTES.taskComplete(overdueTask), 'accountant');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ task_id: overdueTask, status: 'completed', message: WORKSPACE_MESSAGES.taskCompleted });
    const tasks = (await call('GET', `${CRM_ROUTES.tasks}?client_id=${clientId}&status=completed`, 'accountant')).json();
    expect(tasks.tasks.map((t: { id: string }) => t.id)).toEqual([overdueTask]);
    await waitFor(async () => {
      const t = (await call('GET', WORKSPACE_ROUTES.clientTimeline(clientId), 'staff')).json() as TimelineReply;
      return t.entries[0]?.kind === 'task_done' && t.entries[0].summary === 'Task done: Chase bank statements';
    }, 'task done on the Timeline');
    const w = (await call('GET', WORKSPACE_ROUTES.workTasks, 'accountant')).json() as WorkReply;
    expect(w.items.map((i) => i.title)).toEqual(['Prepare VAT return']);
    const reopened = await call('POST', WORKSPACE_ROUTES.taskReopen(overdueTask), 'manager');
    expect(reopened.json()).toMatchObject({ status: 'pending', message: WORKSPACE_MESSAGES.taskReopened });
    // Staff complete any task; completing through the task form (PATCH) is announced too.
    expect((await call('POST', WORKSPACE_ROUTES.taskComplete(otherTask), 'staff')).statusCode).toBe(200);
    const patched = await gw.app.inject({
      method: 'PATCH',
      url: CRM_ROUTES.task(overdueTask),
      headers: bearer(p.staff.token),
      payload: { status: 'completed' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const { rows } = await gw.kit.runtime.pool.query(`select envelope from crm.outbox where type = 'crm.task_done' order by id`);
    expect(rows.map((r) => r.envelope.data.taskId)).toEqual([overdueTask, otherTask, overdueTask]);
  });
});

describe('the Timeline of a client who signed up, signed the letter, paid and uploaded a document', () => {
  it('lists those events newest first, in the order they happened', async () => {
    const sarah = await makePerson(gw, 'sarah@brightsparkelectrical.co.uk', ['client']);
    // Terms before payment (issue 33): the letter is signed before the checkout.
    await acceptTerms(gw, sarah.token, 'Growth');
    const co = await gw.app.inject({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: bearer(sarah.token),
      payload: { package_name: 'Growth' },
    });
    expect(co.statusCode, co.body).toBe(200);
    const sessionId = co.json().session_id as string;
    expect(
      (await gw.app.inject({ method: 'POST', url: `/api/billing/test-checkout/${sessionId}/pay`, headers: bearer(sarah.token) }))
        .statusCode,
    ).toBe(200);
    const verified = await gw.app.inject({
      method: 'POST',
      url: '/api/billing/verify',
      headers: bearer(sarah.token),
      payload: { session_id: sessionId },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    let sarahClient = '';
    await waitFor(async () => {
      const { rows } = await gw.kit.runtime.pool.query<{ id: string }>('select id from crm.clients where user_id = $1', [sarah.id]);
      sarahClient = rows[0]?.id ?? '';
      return Boolean(sarahClient);
    }, 'client record');
    // documents knows the client from crm's event (its own directory), which may come a moment later: an
    // upload before then is refused "Client not found", as it was once under load.
    await waitFor(
      async () =>
        (await gw.kit.runtime.pool.query('select 1 from documents.client_directory where client_id = $1', [sarahClient])).rowCount === 1,
      "documents' directory",
    );
    const body = multipart({ client_id: sarahClient, document_type: 'vat', description: 'October' }, [
      { name: 'october.pdf', type: 'application/pdf', data: SAMPLES.pdf() },
    ]);
    const up = await gw.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...bearer(adminSession), ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBeLessThan(300);

    let kinds: string[] = [];
    await waitFor(async () => {
      const t = (await call('GET', WORKSPACE_ROUTES.clientTimeline(sarahClient), 'staff')).json() as TimelineReply;
      kinds = t.entries.map((e) => e.kind);
      return kinds.includes('document_uploaded') && kinds.includes('letter_signed');
    }, 'the Timeline');
    const four = kinds.filter((k) => ['signed_up', 'payment', 'letter_signed', 'document_uploaded'].includes(k));
    expect(four).toEqual(['document_uploaded', 'payment', 'letter_signed', 'signed_up']);
    // The letter was sent before the client record existed: only its signature is on the Timeline.
    expect(kinds).not.toContain('letter_sent');
    // Paging: one entry a page, each older than the last.
    const first = (await call('GET', `${WORKSPACE_ROUTES.clientTimeline(sarahClient)}?limit=1`, 'staff')).json() as TimelineReply;
    const second = (
      await call('GET', `${WORKSPACE_ROUTES.clientTimeline(sarahClient)}?limit=1&before=${encodeURIComponent(first.next_cursor!)}`, 'staff')
    ).json() as TimelineReply;
    expect([first.entries[0]!.kind, second.entries[0]!.kind]).toEqual(kinds.slice(0, 2));
  }, 60_000);
});
