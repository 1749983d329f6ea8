import { ensureInitialAdmin } from '@countinghouse/identity';
import { makeEnvelope } from '@countinghouse/kit';
import { createTestKit, waitFor } from '@countinghouse/kit/testing';
import {
  TOPICS,
  type ClientRequest,
  type DocumentList,
  type EventData,
  type RequestList,
  type Thread,
  addDays,
  londonDate,
} from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeAllInOne } from '../../../gateway/src/compose.js';
import { ADMIN, bearer, login, makePerson, type Person, type TestGateway } from '../../../gateway/test/helpers.js';
import { scheduledDays } from '../src/domain/schedule.js';
import { runDaily } from '../src/use-cases/daily.js';
import type { RequestsDeps } from '../src/use-cases/deps.js';

let gw: TestGateway;
let admin = '';
let owner: Person;
let otherClient: Person;
let assigned: Person;
let accountant: Person;
let staff: Person;
let manager: Person;
let clock = new Date('2026-11-26T10:00:00Z');
const clientId = randomUUID();
const otherId = randomUUID();

const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`).toString('base64');
const inject = (token: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
  gw.app.inject({ method, url, headers: bearer(token), payload });

async function publish(topic: string, type: 'crm.client_upserted' | 'deadlines.client_deadlines', data: object, key: string) {
  await gw.kit.runtime.bus.publish(topic, [{ key, envelope: makeEnvelope(type, data as never, { kind: 'system', id: null }) }]);
}

async function publishClient(
  d: Partial<EventData<'crm.client_upserted'>> & { clientId: string; companyName: string; contactEmail: string },
) {
  const data: EventData<'crm.client_upserted'> = {
    userId: null,
    contactName: 'Alice Widget',
    packageName: 'Growth',
    monthlyFee: 100,
    subscriptionStatus: 'active',
    assignedAccountantId: null,
    businessType: 'limited',
    ...d,
  };
  await publish(TOPICS.crm, 'crm.client_upserted', data, d.clientId);
}

const deps = (): RequestsDeps => ({
  db: gw.kit.runtime.db,
  logger: pino({ level: 'silent' }),
  practice: () => ({ name: 'Test Practice', email: 'practice@test.co.uk' }),
  now: () => clock,
  publicUrl: 'http://127.0.0.1:3000',
});

const mails = async () =>
  (await inject(admin, 'GET', '/api/identity/outgoing-mail')).json().mail as Array<{ to: string; subject: string; body: string }>;

async function send(token: string, body: object) {
  return inject(token, 'POST', '/api/requests', body);
}

beforeAll(async () => {
  const kit = await createTestKit();
  const app = await composeAllInOne({
    runtime: kit.runtime,
    signer: kit.signer,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    frontendDir: null,
    signInMax: 1000,
    publicConfig: () => ({
      demoMode: true,
      maintenance: false,
      practice: { name: 'Test Practice', phone: '0100 000', email: 'practice@test.co.uk' },
    }),
    services: { requests: { now: () => clock, schedules: false } },
  });
  await ensureInitialAdmin(kit.runtime.db, ADMIN);
  gw = { kit, app, close: async () => (await app.close(), await kit.close()) };
  admin = (await login(app)).json().session_token;
  owner = await makePerson(gw, 'rq.owner@x.co.uk', ['client']);
  otherClient = await makePerson(gw, 'rq.other@x.co.uk', ['client']);
  assigned = await makePerson(gw, 'rq.assigned@x.co.uk', ['accountant']);
  accountant = await makePerson(gw, 'rq.accountant@x.co.uk', ['accountant']);
  staff = await makePerson(gw, 'rq.staff@x.co.uk', ['staff']);
  manager = await makePerson(gw, 'rq.manager@x.co.uk', ['manager']);
  await publishClient({
    clientId,
    companyName: 'Acme Widgets Ltd',
    contactEmail: 'alice@acme.example.co.uk',
    userId: owner.id,
    assignedAccountantId: assigned.id,
  });
  await publishClient({
    clientId: otherId,
    companyName: 'Other Trading Ltd',
    contactEmail: 'bob@other.example.co.uk',
    userId: otherClient.id,
  });
  await waitFor(
    async () =>
      (await inject(admin, 'GET', `/api/requests?client_id=${clientId}`)).statusCode === 200 &&
      (await inject(admin, 'GET', `/api/requests?client_id=${otherId}`)).statusCode === 200 &&
      (await inject(admin, 'GET', '/api/documents/clients?limit=50')).json().clients.length >= 2,
    'the clients in the requests and documents directories',
  );
}, 60_000);

afterAll(async () => {
  await gw?.close();
});

describe('the acceptance: bank statements sent, rejected, sent again, accepted', () => {
  let request: ClientRequest;

  it('a manager sends "Bank statements for 2025-26" due in 10 days; its first e-mail goes at once', async () => {
    const r = await send(manager.token, {
      client_id: clientId,
      title: 'Bank statements for 2025-26',
      due_on: addDays(londonDate(clock), 10),
      items: [{ kind: 'document', label: 'Bank statements for 2025-26', document_type: 'bank_statements' }],
    });
    expect(r.statusCode, r.body).toBe(201);
    request = r.json();
    expect(request).toMatchObject({
      status: 'open',
      client_name: 'Acme Widgets Ltd',
      assignee_id: assigned.id,
      open_items: 1,
      waiting_days: 0,
    });
    expect(request.reminders.map((m) => m.day)).toEqual(['2026-11-26']);
    await waitFor(async () => (await mails()).some((m) => m.subject.includes('Bank statements for 2025-26')), 'the request e-mail');
    const m = (await mails()).find((x) => x.subject.includes('Bank statements for 2025-26'))!;
    expect(m.to).toBe('alice@acme.example.co.uk');
    expect(m.subject).toBe('Test Practice needs: Bank statements for 2025-26 by 6 Dec 2026');
    expect(m.body).toContain(`/client-dashboard?item=${request.items[0]!.id}`);
  });

  it('the client sees it, uploads a PDF against it; the manager rejects it ("page 3 missing")', async () => {
    const mine = (await inject(owner.token, 'GET', '/api/requests?status=open')).json() as RequestList;
    expect(mine.requests.map((x) => x.id)).toEqual([request.id]);
    const item = request.items[0]!;
    const up = await inject(owner.token, 'POST', `/api/requests/${request.id}/items/${item.id}/submit`, {
      file: { filename: 'statements.pdf', content_type: 'application/pdf', base64: pdf('first') },
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().items[0]).toMatchObject({ status: 'submitted' });
    const awaiting = (await inject(manager.token, 'GET', '/api/requests/awaiting-review')).json();
    expect(awaiting.items.map((i: { item_id: string }) => i.item_id)).toContain(item.id);
    const rej = await inject(manager.token, 'POST', `/api/requests/${request.id}/items/${item.id}/review`, {
      decision: 'reject',
      reason: 'page 3 missing',
    });
    expect(rej.statusCode, rej.body).toBe(200);
    expect(rej.json().items[0]).toMatchObject({ status: 'rejected', rejection_reason: 'page 3 missing' });
  });

  it('a rejection needs a reason; a second review of the same submission is refused', async () => {
    const item = request.items[0]!;
    const r = await inject(manager.token, 'POST', `/api/requests/${request.id}/items/${item.id}/review`, { decision: 'accept' });
    expect(r.statusCode).toBe(409);
  });

  it('the client sees the reason, uploads again; the manager accepts; the request is complete', async () => {
    const seen = (await inject(owner.token, 'GET', `/api/requests/${request.id}`)).json() as ClientRequest;
    expect(seen.items[0]).toMatchObject({ status: 'rejected', rejection_reason: 'page 3 missing' });
    const item = request.items[0]!;
    const up = await inject(owner.token, 'POST', `/api/requests/${request.id}/items/${item.id}/submit`, {
      file: { filename: 'statements-all-pages.pdf', content_type: 'application/pdf', base64: pdf('second') },
    });
    expect(up.statusCode, up.body).toBe(200);
    const ok = await inject(manager.token, 'POST', `/api/requests/${request.id}/items/${item.id}/review`, { decision: 'accept' });
    expect(ok.statusCode, ok.body).toBe(200);
    const done = ok.json() as ClientRequest;
    expect(done.status).toBe('complete');
    expect(done.items[0]!.status).toBe('accepted');
    expect(done.items[0]!.document_ids).toHaveLength(2);
    expect(done.activity.map((a) => a.action)).toEqual([
      'opened',
      'reminder',
      'submitted',
      'rejected',
      'submitted',
      'accepted',
      'completed',
    ]);
  });

  it('both files are in the client’s documents with type Bank statements', async () => {
    await waitFor(async () => {
      const docs = (await inject(owner.token, 'GET', '/api/documents?page=1&page_size=20')).json() as DocumentList;
      return docs.documents.filter((d) => d.document_type === 'bank_statements').length === 2;
    }, 'the statements filed as documents');
    const docs = (await inject(owner.token, 'GET', '/api/documents?page=1&page_size=20')).json() as DocumentList;
    expect(docs.documents.map((d) => d.filename).sort()).toEqual(['statements-all-pages.pdf', 'statements.pdf']);
    const id = docs.documents.find((d) => d.filename === 'statements.pdf')!.id;
    const file = await inject(owner.token, 'GET', `/api/documents/${id}/download`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.toString()).toContain('% first');
  });

  it('a closed request takes no more uploads or reminders', async () => {
    const item = request.items[0]!;
    expect(
      (
        await inject(owner.token, 'POST', `/api/requests/${request.id}/items/${item.id}/submit`, {
          file: { filename: 'x.pdf', content_type: 'application/pdf', base64: pdf('x') },
        })
      ).statusCode,
    ).toBe(409);
    expect((await inject(manager.token, 'POST', `/api/requests/${request.id}/remind`)).statusCode).toBe(409);
  });
});

describe('who may do what (a client only their own, an accountant only their clients)', () => {
  let request: ClientRequest;
  beforeAll(async () => {
    const r = await send(staff.token, {
      client_id: clientId,
      title: 'Self Assessment questionnaire',
      due_on: '2027-01-20',
      items: [{ kind: 'question', label: 'Any rental income?', document_type: null }],
    });
    expect(r.statusCode, r.body).toBe(201);
    request = r.json();
  });

  it('reads: staff, manager, admin, the assigned accountant and the owner; not another client or accountant (403)', async () => {
    for (const t of [admin, staff.token, manager.token, assigned.token, owner.token]) {
      expect((await inject(t, 'GET', `/api/requests/${request.id}`)).statusCode).toBe(200);
    }
    for (const t of [otherClient.token, accountant.token]) {
      expect((await inject(t, 'GET', `/api/requests/${request.id}`)).statusCode).toBe(403);
      expect((await inject(t, 'GET', `/api/requests?client_id=${clientId}`)).statusCode).toBe(403);
      expect((await inject(t, 'GET', `/api/requests/threads/${clientId}`)).statusCode).toBe(403);
      expect((await inject(t, 'POST', `/api/requests/threads/${clientId}/messages`, { body: 'Hello?' })).statusCode).toBe(403);
    }
    const otherList = (await inject(otherClient.token, 'GET', '/api/requests')).json() as RequestList;
    expect(otherList.requests.some((x) => x.client_id === clientId)).toBe(false);
    const accList = (await inject(accountant.token, 'GET', '/api/requests')).json() as RequestList;
    expect(accList.requests).toEqual([]);
    const assignedList = (await inject(assigned.token, 'GET', '/api/requests')).json() as RequestList;
    expect(assignedList.requests.map((x) => x.id)).toContain(request.id);
  });

  it('answers: only the client’s side; another client is refused (403)', async () => {
    const item = request.items[0]!;
    const url = `/api/requests/${request.id}/items/${item.id}/submit`;
    expect((await inject(otherClient.token, 'POST', url, { answer: 'No' })).statusCode).toBe(403);
    expect((await inject(owner.token, 'POST', url, {})).statusCode).toBe(400);
    expect((await inject(owner.token, 'POST', url, { answer: 'No rental income' })).statusCode).toBe(200);
  });

  it('reviews, sends and reminders: the practice only, an accountant for their own clients only', async () => {
    const item = request.items[0]!;
    const review = `/api/requests/${request.id}/items/${item.id}/review`;
    expect((await inject(owner.token, 'POST', review, { decision: 'accept' })).statusCode).toBe(403);
    expect((await inject(accountant.token, 'POST', review, { decision: 'accept' })).statusCode).toBe(403);
    const body = {
      client_id: clientId,
      title: 'More',
      due_on: '2027-01-20',
      items: [{ kind: 'confirm', label: 'Still trading?', document_type: null }],
    };
    expect((await send(owner.token, body)).statusCode).toBe(403);
    expect((await send(accountant.token, body)).statusCode).toBe(403);
    expect((await send(otherClient.token, { ...body, client_id: otherId })).statusCode).toBe(403);
    expect((await send(staff.token, { ...body, client_id: randomUUID() })).statusCode).toBe(404);
    expect((await send(staff.token, { ...body, due_on: '2020-01-01' })).statusCode).toBe(400);
    expect((await send(staff.token, { ...body, items: [] })).statusCode).toBe(400);
    expect((await inject(accountant.token, 'POST', `/api/requests/${request.id}/remind`)).statusCode).toBe(403);
    expect((await inject(assigned.token, 'POST', review, { decision: 'accept' })).statusCode).toBe(200);
  });

  it('templates: managers edit them; the defaults are there with the issue’s lead times', async () => {
    const t = (await inject(staff.token, 'GET', '/api/requests/templates')).json();
    const byName = Object.fromEntries(t.templates.map((x: { name: string }) => [x.name, x]));
    expect(Object.keys(byName).sort()).toEqual([
      'Identity documents',
      'Self Assessment questionnaire',
      'VAT quarter records',
      'Year-end records',
    ]);
    expect(byName['VAT quarter records']).toMatchObject({
      deadline_kind: 'vat_return',
      lead_days: 21,
      schedule: { before_days: [14, 7, 3, 1], overdue_every_days: 3 },
    });
    expect(byName['Year-end records']).toMatchObject({ deadline_kind: 'accounts', lead_days: 90 });
    expect((await inject(owner.token, 'GET', '/api/requests/templates')).statusCode).toBe(403);
    const id = byName['Identity documents'].id;
    const body = { ...byName['Identity documents'], schedule: { before_days: [5, 10], overdue_every_days: 2 } };
    delete body.id;
    delete body.updated_at;
    expect((await inject(staff.token, 'PUT', `/api/requests/templates/${id}`, body)).statusCode).toBe(403);
    const r = await inject(manager.token, 'PUT', `/api/requests/templates/${id}`, body);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().schedule).toEqual({ before_days: [10, 5], overdue_every_days: 2 });
    expect((await inject(manager.token, 'PUT', `/api/requests/templates/${id}`, { ...body, lead_days: 5 })).statusCode).toBe(400);
  });
});

describe('the chase, with the clock moved forward', () => {
  const sentOn = '2026-12-01';
  const dueOn = '2026-12-31';
  let request: ClientRequest;
  const reminderMails = async () => (await mails()).filter((m) => m.subject.includes('Year-end bank statements')).length;

  it('reminds exactly on the schedule while an item is open, one a day, and a second daily run sends nothing twice', async () => {
    clock = new Date(`${sentOn}T10:00:00Z`);
    const r = await send(manager.token, {
      client_id: otherId,
      title: 'Year-end bank statements',
      due_on: dueOn,
      items: [
        { kind: 'document', label: 'Bank statements', document_type: 'bank_statements' },
        { kind: 'confirm', label: 'No other bank accounts?', document_type: null },
      ],
    });
    expect(r.statusCode, r.body).toBe(201);
    request = r.json();
    const sentDays: string[] = [];
    for (let day = sentOn; day <= '2027-01-09'; day = addDays(day, 1)) {
      clock = new Date(`${day}T09:00:00Z`);
      const first = await runDaily(deps(), day);
      const second = await runDaily(deps(), day);
      expect(second.reminded, `second run on ${day}`).toBe(0);
      if (first.reminded > 0) sentDays.push(day);
    }
    // The sent day's e-mail went with the request; the job sends the others.
    expect(sentDays).toEqual(scheduledDays(sentOn, dueOn, { before_days: [14, 7, 3, 1], overdue_every_days: 3 }, '2027-01-09').slice(1));
    expect(sentDays).toEqual(['2026-12-17', '2026-12-24', '2026-12-28', '2026-12-30', '2027-01-03', '2027-01-06', '2027-01-09']);
    const seen = (await inject(manager.token, 'GET', `/api/requests/${request.id}`)).json() as ClientRequest;
    expect(seen.reminders.map((m) => m.day)).toEqual([sentOn, ...sentDays]);
    await waitFor(async () => (await reminderMails()) === 8, 'eight chase e-mails in the mail log');
    const last = (await mails()).find((m) => m.subject === 'Overdue: Year-end bank statements')!;
    expect(last.body).toContain('Bank statements');
    expect(last.to).toBe('bob@other.example.co.uk');
  });

  it('lists only the items still open; "send one now" is refused a second time the same day', async () => {
    clock = new Date('2027-01-10T10:00:00Z');
    const item = request.items.find((i) => i.kind === 'confirm')!;
    expect(
      (await inject(otherClient.token, 'POST', `/api/requests/${request.id}/items/${item.id}/submit`, { confirmed: true })).statusCode,
    ).toBe(200);
    expect((await inject(staff.token, 'POST', `/api/requests/${request.id}/remind`)).statusCode).toBe(200);
    expect((await inject(staff.token, 'POST', `/api/requests/${request.id}/remind`)).statusCode).toBe(409);
    await waitFor(async () => (await reminderMails()) === 9, 'the reminder sent by hand');
    const m = (await mails()).filter((x) => x.subject === 'Overdue: Year-end bank statements')[0]!;
    expect(m.body).toContain('- Bank statements:');
    expect(m.body).not.toContain('No other bank accounts?');
    expect((await runDaily(deps(), '2027-01-10')).reminded).toBe(0);
  });

  it('none after completion', async () => {
    const doc = request.items.find((i) => i.kind === 'document')!;
    const conf = request.items.find((i) => i.kind === 'confirm')!;
    expect(
      (
        await inject(otherClient.token, 'POST', `/api/requests/${request.id}/items/${doc.id}/submit`, {
          file: { filename: 'b.pdf', content_type: 'application/pdf', base64: pdf('b') },
        })
      ).statusCode,
    ).toBe(200);
    for (const i of [doc, conf]) {
      expect(
        (await inject(manager.token, 'POST', `/api/requests/${request.id}/items/${i.id}/review`, { decision: 'accept' })).statusCode,
      ).toBe(200);
    }
    expect(((await inject(manager.token, 'GET', `/api/requests/${request.id}`)).json() as ClientRequest).status).toBe('complete');
    let reminded = 0;
    for (let day = '2027-01-11'; day <= '2027-02-01'; day = addDays(day, 1)) reminded += (await runDaily(deps(), day)).reminded;
    expect(reminded).toBe(0);
  });
});

describe('requests opened ahead of deadlines', () => {
  it('a VAT deadline 21 days away opens its request once, assigned to the client’s accountant; one 22 days away waits', async () => {
    clock = new Date('2027-02-01T10:00:00Z');
    const vat = randomUUID();
    const later = randomUUID();
    await publish(
      TOPICS.deadlines,
      'deadlines.client_deadlines',
      {
        clientId,
        deadlines: [
          { deadlineId: vat, kind: 'vat_return', period: 'Quarter to 31 Dec 2026', dueOn: '2027-02-22', done: false },
          { deadlineId: later, kind: 'vat_return', period: 'Quarter to 31 Mar 2027', dueOn: '2027-02-23', done: false },
        ],
      },
      clientId,
    );
    await waitFor(async () => {
      const r = await gw.kit.runtime.pool.query('select count(*)::int as n from requests.deadline_directory where client_id = $1', [
        clientId,
      ]);
      return r.rows[0].n === 2;
    }, 'the deadlines in the requests service');
    expect((await runDaily(deps(), '2027-02-01')).opened).toBe(1);
    expect((await runDaily(deps(), '2027-02-01')).opened).toBe(0);
    const list = (await inject(assigned.token, 'GET', `/api/requests?client_id=${clientId}&status=open`)).json() as RequestList;
    const opened = list.requests.filter((x) => x.deadline_id !== null);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      deadline_id: vat,
      due_on: '2027-02-22',
      assignee_id: assigned.id,
      title: 'VAT quarter records: VAT return and payment, Quarter to 31 Dec 2026',
    });
    expect(opened[0]!.items.map((i) => i.label)).toEqual([
      'Bank statements for the quarter',
      'Sales invoices for the quarter',
      'Purchase receipts for the quarter',
    ]);
    clock = new Date('2027-02-02T10:00:00Z');
    expect((await runDaily(deps(), '2027-02-02')).opened).toBe(1);
    expect((await runDaily(deps(), '2027-02-02')).opened).toBe(0);
  });
});

describe('secure messages', () => {
  it('a client’s message with an attachment reaches the thread, the file is in documents, the practice sees it unread', async () => {
    const r = await inject(owner.token, 'POST', `/api/requests/threads/${clientId}/messages`, {
      body: 'Here is the loan statement you asked about.',
      attachments: [{ filename: 'loan.pdf', content_type: 'application/pdf', base64: pdf('loan') }],
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toMatchObject({ side: 'client', attachments: [{ filename: 'loan.pdf' }] });
    const docId = r.json().attachments[0].document_id;
    await waitFor(
      async () => (await inject(owner.token, 'GET', `/api/documents/${docId}`)).statusCode === 200,
      'the attachment in documents',
    );
    expect((await inject(assigned.token, 'GET', `/api/documents/${docId}`)).json()).toMatchObject({
      filename: 'loan.pdf',
      document_type: 'other',
    });
    const unread = (await inject(manager.token, 'GET', '/api/requests/threads/unread')).json();
    expect(unread.threads).toEqual([expect.objectContaining({ client_id: clientId, client_name: 'Acme Widgets Ltd', unread: 1 })]);
    expect((await inject(accountant.token, 'GET', '/api/requests/threads/unread')).json().threads).toEqual([]);
    expect((await inject(owner.token, 'GET', '/api/requests/threads/unread')).statusCode).toBe(403);
    await waitFor(
      async () => (await mails()).some((m) => m.subject === 'New secure message from Acme Widgets Ltd'),
      'the notice to the practice',
    );
    const notice = (await mails()).find((m) => m.subject === 'New secure message from Acme Widgets Ltd')!;
    expect(notice.to).toBe('practice@test.co.uk');
    expect(notice.body).not.toContain('loan statement');
  });

  it('reading the thread marks it read for the practice; the reply is unread for the client, and its notice has no content', async () => {
    const t = (await inject(assigned.token, 'GET', `/api/requests/threads/${clientId}`)).json() as Thread;
    expect(t.unread).toBe(1);
    expect(t.messages.map((m) => m.body)).toEqual(['Here is the loan statement you asked about.']);
    expect((await inject(manager.token, 'GET', '/api/requests/threads/unread')).json().threads).toEqual([]);
    clock = new Date(clock.getTime() + 60_000);
    expect(
      (
        await inject(assigned.token, 'POST', `/api/requests/threads/${clientId}/messages`, {
          body: 'Thanks, received: the private details',
        })
      ).statusCode,
    ).toBe(201);
    const mine = (await inject(owner.token, 'GET', `/api/requests/threads/${clientId}?mark_read=false`)).json() as Thread;
    expect(mine.unread).toBe(1);
    expect(mine.messages.map((m) => m.side)).toEqual(['client', 'practice']);
    await waitFor(
      async () => (await mails()).some((m) => m.subject === 'New secure message from Test Practice'),
      'the notice to the client',
    );
    const notice = (await mails()).find((m) => m.subject === 'New secure message from Test Practice')!;
    expect(notice.to).toBe('alice@acme.example.co.uk');
    expect(notice.body).not.toContain('private details');
  });

  it('refuses a due date that is not a real day with 400, not a server error (schemathesis found 8637-88-16)', async () => {
    for (const due_on of ['2026-02-30', '8637-88-16']) {
      const r = await send(manager.token, {
        client_id: clientId,
        title: 'Receipts',
        due_on,
        items: [{ kind: 'document', label: 'Receipts for March', document_type: 'receipts' }],
      });
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().error.message).toBe('The due date is not a real date');
    }
  });

  it('refuses a file that is not what it says', async () => {
    const r = await inject(owner.token, 'POST', `/api/requests/threads/${clientId}/messages`, {
      body: 'x',
      attachments: [{ filename: 'fake.pdf', content_type: 'application/pdf', base64: Buffer.from('not a pdf').toString('base64') }],
    });
    expect(r.statusCode).toBe(415);
    expect(r.json().error.code).toBe('UNSUPPORTED_FILE_TYPE');
  });
});
