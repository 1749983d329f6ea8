import { ensureInitialAdmin } from '@countinghouse/identity';
import { makeEnvelope } from '@countinghouse/kit';
import { createTestKit, waitFor } from '@countinghouse/kit/testing';
import {
  TOPICS,
  type ClientLetters,
  type DocumentList,
  type EventData,
  type Letter,
  type LetterStatuses,
  type MyLetters,
  type Templates,
  type WorkReply,
} from '@countinghouse/proto';
import { createHash, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeAllInOne } from '../../../gateway/src/compose.js';
import { ADMIN, bearer, login, makePerson, type Person, type TestGateway } from '../../../gateway/test/helpers.js';
import { runReminders } from '../src/use-cases/reminders.js';
import { pdfTextLines } from './pdf-text.js';

let gw: TestGateway;
let admin = '';
let owner: Person;
let otherClient: Person;
let accountant: Person;
let assigned: Person;
let staff: Person;
let manager: Person;
let clock = new Date('2026-11-02T10:00:00Z');
const clientId = randomUUID();
const soleId = randomUUID();

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const inject = (token: string, method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  gw.app.inject({ method, url, headers: { ...bearer(token), 'user-agent': 'EngagementTest/1.0' }, payload });

async function publishClient(d: Partial<EventData<'crm.client_upserted'>> & { clientId: string; companyName: string }) {
  const data: EventData<'crm.client_upserted'> = {
    userId: null,
    contactName: 'Alice Widget',
    contactEmail: 'alice@acme.example.co.uk',
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

async function lettersOf(token: string, id = clientId): Promise<ClientLetters> {
  const r = await inject(token, 'GET', `/api/engagement/clients/${id}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
}

async function mine(token: string): Promise<MyLetters> {
  const r = await inject(token, 'GET', '/api/engagement/mine');
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
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
    services: { engagement: { now: () => clock } },
  });
  await ensureInitialAdmin(kit.runtime.db, ADMIN);
  gw = { kit, app, close: async () => (await app.close(), await kit.close()) };
  admin = (await login(app)).json().session_token;
  owner = await makePerson(gw, 'el.owner@x.co.uk', ['client']);
  otherClient = await makePerson(gw, 'el.other@x.co.uk', ['client']);
  accountant = await makePerson(gw, 'el.accountant@x.co.uk', ['accountant']);
  assigned = await makePerson(gw, 'el.assigned@x.co.uk', ['accountant']);
  staff = await makePerson(gw, 'el.staff@x.co.uk', ['staff']);
  manager = await makePerson(gw, 'el.manager@x.co.uk', ['manager']);
  await publishClient({ clientId, companyName: 'Acme Widgets Ltd', userId: owner.id, assignedAccountantId: assigned.id });
  await waitFor(
    async () => (await inject(admin, 'GET', `/api/engagement/clients/${clientId}`)).statusCode === 200,
    'the client in the directory',
  );
}, 60_000);

afterAll(async () => {
  await gw?.close();
});

describe('a new client paying for Growth', () => {
  it('gets letter version 1 awaiting signature, with the package, £100.00 per month and the practice in its text', async () => {
    const l = await lettersOf(admin);
    expect(l.status).toBe('awaiting_signature');
    expect(l.letters).toHaveLength(1);
    expect(l.current).toMatchObject({ version: 1, reason: 'onboarding', package_name: 'Growth', monthly_fee: 100, is_consumer: false });
    const my = await mine(owner.token);
    expect(my.clients).toHaveLength(1);
    const letter = my.clients[0]!.to_sign!;
    expect(letter.text).toContain('SCHEDULE OF SERVICES: Growth');
    expect(letter.text).toContain('£100.00 per month');
    expect(letter.text).toContain('Test Practice and Acme Widgets Ltd');
    expect(letter.text).toContain('Starting 2 Nov 2026');
    expect(letter.text).not.toContain('YOUR RIGHT TO CANCEL');
    expect(letter.text_sha256).toBe(sha(letter.text));
  });

  it('who sees the letter: staff, the assigned accountant and the owner; not another accountant or client', async () => {
    for (const t of [admin, staff.token, manager.token, assigned.token, owner.token])
      expect((await inject(t, 'GET', `/api/engagement/clients/${clientId}`)).statusCode).toBe(200);
    for (const t of [accountant.token, otherClient.token])
      expect((await inject(t, 'GET', `/api/engagement/clients/${clientId}`)).statusCode).toBe(404);
    expect((await mine(otherClient.token)).clients).toEqual([]);
    const st = (await inject(assigned.token, 'GET', '/api/engagement/statuses')).json() as LetterStatuses;
    expect(st.statuses.map((s) => s.client_id)).toEqual([clientId]);
    expect(((await inject(accountant.token, 'GET', '/api/engagement/statuses')).json() as LetterStatuses).statuses).toEqual([]);
  });

  it('counts on the control panel as awaiting signature', async () => {
    const r = await inject(admin, 'GET', '/api/engagement/overview');
    expect(r.json()).toEqual({ awaiting_signature: 1 });
    expect((await inject(assigned.token, 'GET', '/api/engagement/overview')).statusCode).toBe(403);
  });

  it('My work (issue 26): the assigned accountant sees it awaiting signature, due 14 days after sending; everyone is for staff', async () => {
    const before = clock;
    try {
      // Tuesday 10 Nov: sent Monday 2 Nov, due Monday 16 Nov, next week.
      clock = new Date('2026-11-10T09:00:00Z');
      const w = (await inject(assigned.token, 'GET', '/api/engagement/work')).json() as WorkReply;
      expect(w).toMatchObject({ who: 'mine', today: '2026-11-10' });
      expect(w.items.map((i) => [i.kind, i.client_id, i.due_on, i.bucket])).toEqual([['letter', clientId, '2026-11-16', 'next_week']]);
      expect(((await inject(accountant.token, 'GET', '/api/engagement/work')).json() as WorkReply).items).toEqual([]);
      expect((await inject(accountant.token, 'GET', '/api/engagement/work?who=everyone')).statusCode).toBe(403);
      const everyone = (await inject(staff.token, 'GET', '/api/engagement/work?who=everyone')).json() as WorkReply;
      expect(everyone.items.map((i) => i.client_id)).toEqual([clientId]);
      clock = new Date('2026-11-17T09:00:00Z');
      expect(((await inject(admin, 'GET', '/api/engagement/work?who=everyone')).json() as WorkReply).items[0]?.bucket).toBe('overdue');
      expect((await inject(owner.token, 'GET', '/api/engagement/work')).statusCode).toBe(403);
    } finally {
      clock = before;
    }
  });
});

describe('signing', () => {
  let letter: Letter;

  it('only the owner signs: staff are refused, another client is not told it exists, the agreement must be ticked', async () => {
    const id = (await lettersOf(admin)).current!.id;
    const body = { full_name: 'Alice Mary Widget', agree: true };
    expect((await inject(staff.token, 'POST', `/api/engagement/letters/${id}/sign`, body)).statusCode).toBe(403);
    expect((await inject(assigned.token, 'POST', `/api/engagement/letters/${id}/sign`, body)).statusCode).toBe(403);
    expect((await inject(admin, 'POST', `/api/engagement/letters/${id}/sign`, body)).statusCode).toBe(403);
    expect((await inject(otherClient.token, 'POST', `/api/engagement/letters/${id}/sign`, body)).statusCode).toBe(404);
    const noTick = await inject(owner.token, 'POST', `/api/engagement/letters/${id}/sign`, { ...body, agree: false });
    expect(noTick.statusCode).toBe(400);
    expect(noTick.json().error.message).toBe('Please tick the box to agree to the terms.');
    const blank = await inject(owner.token, 'POST', `/api/engagement/letters/${id}/sign`, { ...body, full_name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect((await lettersOf(admin)).status).toBe('awaiting_signature');
  });

  it('the owner signs: name, time, address and browser are kept, and a PDF of the exact text with its certificate', async () => {
    clock = new Date('2026-11-03T14:05:09Z');
    const id = (await lettersOf(admin)).current!.id;
    const r = await inject(owner.token, 'POST', `/api/engagement/letters/${id}/sign`, { full_name: '  Alice  Mary Widget ', agree: true });
    expect(r.statusCode, r.body).toBe(200);
    letter = r.json().letter;
    expect(letter.status).toBe('signed');
    expect(letter.signature).toMatchObject({
      signer_name: 'Alice Mary Widget',
      signer_email: 'alice@acme.example.co.uk',
      signed_at: '2026-11-03T14:05:09.000Z',
      user_agent: 'EngagementTest/1.0',
      cancellation_ends_on: null,
    });
    expect(letter.signature!.ip).toBeTruthy();

    const pdf = await inject(owner.token, 'GET', `/api/engagement/letters/${id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe('attachment; filename="engagement-letter-v1-signed-2026-11-03.pdf"');
    expect(sha(pdf.rawPayload)).toBe(letter.signature!.pdf_sha256);
    const lines = pdfTextLines(pdf.rawPayload);
    const all = lines.join('\n');
    expect(all).toContain('SCHEDULE OF SERVICES: Growth');
    expect(all).toContain('£100.00 per month');
    expect(lines).toContain('Alice Mary Widget');
    expect(lines).toContain('SIGNATURE CERTIFICATE');
    expect(lines).toContain('2026-11-03 14:05:09 UTC');
    expect(lines).toContain('3 Nov 2026, 14:05:09 GMT');
    expect(lines).toContain('EngagementTest/1.0');
    // The certificate's SHA-256 is the hash of the letter's text as stored and as shown to the client.
    const stated = lines.find((l) => l.startsWith('SHA-256: '))!.slice('SHA-256: '.length);
    expect(stated).toBe(sha(letter.text));
    expect(stated).toBe(letter.text_sha256);
    // Every line of the letter is printed (wrapped lines joined back), in order.
    const printed = lines.slice(0, lines.indexOf('SIGNATURE CERTIFICATE')).join(' ').replace(/\s+/g, ' ');
    expect(printed).toBe(letter.text.replace(/\s+/g, ' ').trim());
  });

  it('the signed PDF is filed as the client’s document (type engagement), seen by the client and the practice', async () => {
    let docs: DocumentList | null = null;
    await waitFor(async () => {
      const r = await inject(owner.token, 'GET', '/api/documents?page=1&page_size=20');
      docs = r.json();
      return (docs?.documents ?? []).some((d) => d.document_type === 'engagement');
    }, 'the signed letter in the documents');
    const doc = docs!.documents.find((d) => d.document_type === 'engagement')!;
    expect(doc.id).toBe(letter.signature!.document_id);
    expect(doc.filename).toBe('engagement-letter-v1-signed-2026-11-03.pdf');
    const dl = await inject(admin, 'GET', `/api/documents/${doc.id}/download`);
    expect(dl.statusCode).toBe(200);
    expect(sha(dl.rawPayload)).toBe(letter.signature!.pdf_sha256);
    expect((await inject(otherClient.token, 'GET', `/api/documents/${doc.id}`)).statusCode).toBe(404);
  });

  it('nobody can upload a document of type engagement by hand', async () => {
    const boundary = 'x-boundary';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="document_type"\r\n\r\nengagement\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="fake.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 fake\r\n--${boundary}--\r\n`;
    const r = await gw.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...bearer(owner.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(r.statusCode).toBe(400);
  });

  it('a signed letter cannot be signed again, changed or deleted through any API, whatever the role', async () => {
    const id = letter.id;
    expect(
      (await inject(owner.token, 'POST', `/api/engagement/letters/${id}/sign`, { full_name: 'Mallory', agree: true })).statusCode,
    ).toBe(409);
    for (const t of [admin, manager.token, staff.token, assigned.token, owner.token]) {
      for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
        // No route changes a letter, its PDF or the filed document: a path that exists for reading answers
        // 405 with an Allow header that does not name the method (issue 32), any other 404.
        for (const url of [
          `/api/engagement/letters/${id}`,
          `/api/engagement/letters/${id}/pdf`,
          `/api/documents/${letter.signature!.document_id}`,
        ]) {
          const r = await inject(t, method, url, { text: 'changed' });
          expect([404, 405], `${method} ${url} ${r.body}`).toContain(r.statusCode);
          if (r.statusCode === 405) expect(String(r.headers.allow).split(/,\s*/)).not.toContain(method);
        }
      }
    }
    const again = (await inject(admin, 'GET', `/api/engagement/letters/${id}`)).json() as Letter;
    expect(again.text).toBe(letter.text);
    expect(again.signature).toEqual(letter.signature);
  });

  it('the database itself refuses to change or delete a signed letter', async () => {
    const pool = gw.kit.runtime.pool;
    await expect(pool.query(`update engagement.letters set signer_name = 'Mallory' where id = $1`, [letter.id])).rejects.toThrow(
      /never changed/,
    );
    await expect(pool.query(`update engagement.letters set text = 'x' where id = $1`, [letter.id])).rejects.toThrow(/never changed/);
    await expect(pool.query(`delete from engagement.letters where id = $1`, [letter.id])).rejects.toThrow(/never deleted/);
    await expect(pool.query(`delete from engagement.audit where letter_id = $1`, [letter.id])).rejects.toThrow(/never changed or deleted/);
  });

  it('the practice is notified that the letter was signed', async () => {
    await waitFor(async () => {
      const r = await inject(admin, 'GET', '/api/notifications?page=1');
      return JSON.stringify(r.json()).includes("Alice Mary Widget signed Acme Widgets Ltd's engagement letter (version 1, Growth)");
    }, 'the engagement_signed notification');
  });

  it('sending, viewing, signing and downloading are in the audit trail', async () => {
    const r = await inject(staff.token, 'GET', `/api/engagement/letters/${letter.id}/audit`);
    expect(r.statusCode).toBe(200);
    const actions = (r.json().entries as Array<{ action: string; principal_name: string }>).map((e) => e.action);
    expect(actions[0]).toBe('send');
    expect(actions).toContain('view');
    expect(actions).toContain('sign');
    expect(actions).toContain('download');
    expect((await inject(owner.token, 'GET', `/api/engagement/letters/${letter.id}/audit`)).statusCode).toBe(403);
  });
});

describe('a package change asks again', () => {
  it('upgrading to Scale makes version 2 to sign; version 1 is superseded and its PDF still listed', async () => {
    clock = new Date('2026-11-10T09:00:00Z');
    await publishClient({
      clientId,
      companyName: 'Acme Widgets Ltd',
      userId: owner.id,
      assignedAccountantId: assigned.id,
      packageName: 'Scale',
      monthlyFee: 150,
    });
    await waitFor(async () => (await lettersOf(admin)).letters.length === 2, 'version 2');
    const l = await lettersOf(admin);
    expect(l.status).toBe('awaiting_signature');
    expect(l.letters.map((x) => [x.version, x.status, x.reason, x.package_name])).toEqual([
      [2, 'awaiting_signature', 'package_changed', 'Scale'],
      [1, 'superseded', 'onboarding', 'Growth'],
    ]);
    expect(l.letters[1]!.signed_at).toBe('2026-11-03T14:05:09.000Z');
    const my = await mine(owner.token);
    expect(my.clients[0]!.to_sign!.text).toContain('£150.00 per month');
    const docs = (await inject(owner.token, 'GET', '/api/documents?page=1&page_size=20')).json() as DocumentList;
    expect(docs.documents.filter((d) => d.document_type === 'engagement')).toHaveLength(1);
    // The superseded version cannot be signed any more.
    const v1 = l.letters[1]!.id;
    expect((await inject(owner.token, 'POST', `/api/engagement/letters/${v1}/sign`, { full_name: 'A', agree: true })).statusCode).toBe(409);
  });

  it('the same package again (a name or fee edit) makes no new version; a redelivered event neither', async () => {
    await publishClient({
      clientId,
      companyName: 'Acme Widgets Limited',
      userId: owner.id,
      assignedAccountantId: assigned.id,
      packageName: 'Scale',
      monthlyFee: 150,
    });
    await waitFor(async () => (await inject(admin, 'GET', '/api/engagement/statuses')).statusCode === 200, 'settled');
    await new Promise((r) => setTimeout(r, 300));
    expect((await lettersOf(admin)).letters).toHaveLength(2);
  });
});

describe('reminders by e-mail after 3 and 7 days', () => {
  const mails = async () =>
    (await inject(admin, 'GET', '/api/identity/outgoing-mail')).json().mail as Array<{ to: string; subject: string; body: string }>;
  const reminderCount = async () =>
    (await mails()).filter((m) => m.subject.startsWith('Reminder: please sign your engagement letter')).length;

  it('chases version 2 (sent 10 Nov) on 13 Nov and 17 Nov, once each, into the outgoing-mail log', async () => {
    const deps = depsOf();
    expect((await runReminders(deps, '2026-11-12')).sent).toBe(0);
    expect((await runReminders(deps, '2026-11-13')).sent).toBe(1);
    expect((await runReminders(deps, '2026-11-13')).sent).toBe(0);
    await waitFor(async () => (await reminderCount()) === 1, 'the day-3 reminder in the mail log');
    expect((await runReminders(deps, '2026-11-17')).sent).toBe(1);
    await waitFor(async () => (await reminderCount()) === 2, 'the day-7 reminder in the mail log');
    const m = (await mails()).find((x) => x.subject.startsWith('Reminder'))!;
    expect(m.to).toBe('alice@acme.example.co.uk');
    expect(m.subject).toBe('Reminder: please sign your engagement letter with Test Practice');
    expect(m.body).toContain("We sent Acme Widgets Ltd's engagement letter on 10 Nov 2026");
  });

  it('stops once signed', async () => {
    const id = (await lettersOf(admin)).current!.id;
    expect(
      (await inject(owner.token, 'POST', `/api/engagement/letters/${id}/sign`, { full_name: 'Alice Mary Widget', agree: true })).statusCode,
    ).toBe(200);
    await publishClient({
      clientId: soleId,
      companyName: 'Sam Sole',
      userId: otherClient.id,
      businessType: 'sole_trader',
      packageName: 'Sole Trader Package',
      monthlyFee: 40,
    });
    await waitFor(async () => (await inject(admin, 'GET', `/api/engagement/clients/${soleId}`)).statusCode === 200, 'the sole trader');
    // Only the sole trader's letter (sent 10 Nov by the clock) is chased now.
    expect((await runReminders(depsOf(), '2026-11-20')).sent).toBe(1);
  });
});

describe('a consumer’s letter', () => {
  it('carries the cancellation notice, and the certificate the last day to cancel (14 days after signing)', async () => {
    const my = await mine(otherClient.token);
    const l = my.clients[0]!.to_sign!;
    expect(l.is_consumer).toBe(true);
    expect(l.text).toContain('YOUR RIGHT TO CANCEL');
    clock = new Date('2026-12-31T23:30:00Z');
    const r = await inject(otherClient.token, 'POST', `/api/engagement/letters/${l.id}/sign`, { full_name: 'Sam Sole', agree: true });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().letter.signature.cancellation_ends_on).toBe('2027-01-14');
    const pdf = await inject(otherClient.token, 'GET', `/api/engagement/letters/${l.id}/pdf`);
    expect(pdfTextLines(pdf.rawPayload).join(' ')).toContain('Ends at the end of 14 Jan 2027');
  });
});

describe('templates (/admin/settings)', () => {
  it('administrators only; unknown placeholders are refused; a save is a new version and letters sent stay as they were', async () => {
    for (const t of [staff.token, manager.token, owner.token])
      expect((await inject(t, 'GET', '/api/engagement/templates')).statusCode).toBe(403);
    const cur = (await inject(admin, 'GET', '/api/engagement/templates')).json() as Templates;
    expect(cur.version).toBe(1);
    expect(Object.keys(cur.templates.schedules)).toContain('Growth');
    const bad = await inject(admin, 'PUT', '/api/engagement/templates', {
      version: 1,
      templates: { ...cur.templates, terms: 'Hello {{clinet_name}}' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details).toContainEqual({ path: '/terms', message: 'Unknown placeholder {{clinet_name}}' });
    const terms = `${cur.templates.terms}\n7. New clause for {{client_name}}.`;
    const ok = await inject(admin, 'PUT', '/api/engagement/templates', { version: 1, templates: { ...cur.templates, terms } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().templates.version).toBe(2);
    expect(ok.json().templates.clients_on_older_version).toBe(2);
    const stale = await inject(admin, 'PUT', '/api/engagement/templates', { version: 1, templates: cur.templates });
    expect(stale.statusCode).toBe(409);
    expect((await lettersOf(admin)).letters).toHaveLength(2);
  });

  it('sending the new terms makes a new version for each client on older ones, once', async () => {
    const r = await inject(admin, 'POST', '/api/engagement/templates/send');
    expect(r.json()).toMatchObject({ sent: 2, message: 'New terms sent to 2 clients' });
    expect((await inject(admin, 'POST', '/api/engagement/templates/send')).json().sent).toBe(0);
    const l = await lettersOf(admin);
    expect(l.current).toMatchObject({ version: 3, reason: 'template_changed', template_version: 2, status: 'awaiting_signature' });
    expect((await mine(owner.token)).clients[0]!.to_sign!.text).toContain('7. New clause for Acme Widgets Limited.');
    expect((await inject(admin, 'GET', '/api/engagement/overview')).json()).toEqual({ awaiting_signature: 2 });
  });

  it('staff send one client a new version; an unchanged letter awaiting signature is not sent twice', async () => {
    expect((await inject(staff.token, 'POST', `/api/engagement/clients/${clientId}/send`)).statusCode).toBe(409);
    expect((await inject(assigned.token, 'POST', `/api/engagement/clients/${clientId}/send`)).statusCode).toBe(403);
    expect((await inject(owner.token, 'POST', `/api/engagement/clients/${clientId}/send`)).statusCode).toBe(403);
    expect((await inject(staff.token, 'POST', `/api/engagement/clients/${randomUUID()}/send`)).statusCode).toBe(404);
  });
});

function depsOf() {
  return {
    db: gw.kit.runtime.db,
    logger: pino({ level: 'silent' }),
    practice: () => ({ name: 'Test Practice', phone: '0100 000', email: 'practice@test.co.uk' }),
    now: () => clock,
    publicUrl: 'http://127.0.0.1:3000',
  };
}
