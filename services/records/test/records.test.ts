import { ensureInitialAdmin } from '@countinghouse/identity';
import { makeEnvelope } from '@countinghouse/kit';
import { createTestKit, waitFor } from '@countinghouse/kit/testing';
import {
  AML_ROUTES,
  TOPICS,
  type AuditList,
  type ChainCheck,
  type EventData,
  type RetentionRun,
  type SubjectAccess,
} from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeAllInOne } from '../../../gateway/src/compose.js';
import { ADMIN, bearer, login, makePerson, type Person, type TestGateway } from '../../../gateway/test/helpers.js';
import { multipart, SAMPLES } from '../../documents/test/helpers.js';
import { readZip } from '../src/domain/subject-access.js';

let gw: TestGateway;
let storageDir = '';
let admin = '';
let manager: Person;
let mlro: Person;
let staff: Person;
let accountant: Person;
const clock = new Date('2026-11-26T10:00:00Z');

const inject = (token: string, method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, payload?: object) =>
  gw.app.inject({ method, url, headers: bearer(token), payload });

async function audit(query: string, token = admin): Promise<AuditList> {
  const r = await inject(token, 'GET', `/api/records/audit?${query}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
}

async function addClient(name: string, extra: object = {}): Promise<string> {
  const r = await inject(admin, 'POST', '/api/crm/clients', {
    company_name: name,
    contact_email: `${name.split(' ')[0]!.toLowerCase()}@x.co.uk`,
    ...extra,
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id;
}

beforeAll(async () => {
  const kit = await createTestKit();
  storageDir = mkdtempSync(join(tmpdir(), 'ch-records-test-'));
  const app = await composeAllInOne({
    runtime: kit.runtime,
    signer: kit.signer,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    frontendDir: null,
    signInMax: 1000,
    documentsStorageDir: storageDir,
    publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'Test Practice', phone: '0100', email: 'a@b.c' } }),
    recordsNow: () => clock,
    recordsSchedules: false,
  });
  await ensureInitialAdmin(kit.runtime.db, ADMIN);
  gw = { kit, app, close: async () => (await app.close(), await kit.close()) };
  admin = (await login(app)).json().session_token;
  manager = await makePerson(gw, 'rec.manager@x.co.uk', ['manager']);
  mlro = await makePerson(gw, 'rec.mlro@x.co.uk', ['mlro']);
  staff = await makePerson(gw, 'rec.staff@x.co.uk', ['staff']);
  accountant = await makePerson(gw, 'rec.accountant@x.co.uk', ['accountant']);
}, 60_000);

afterAll(async () => {
  await gw?.close();
  rmSync(storageDir, { recursive: true, force: true });
});

describe('the audit trail', () => {
  let clientId = '';

  it('a change of phone number adds one entry: who, when, from which address, which field (not the number)', async () => {
    clientId = await addClient('Audit Trail Ltd', { contact_phone: '020 7946 0000' });
    await waitFor(async () => (await audit(`client_id=${clientId}`)).total === 1, 'the creation entry');
    const r = await inject(manager.token, 'PATCH', `/api/crm/clients/${clientId}`, { contact_phone: '020 7946 0999' });
    expect(r.statusCode, r.body).toBe(200);
    await waitFor(async () => (await audit(`client_id=${clientId}&kind=changes`)).total === 2, 'the change entry');
    const [change] = (await audit(`client_id=${clientId}&kind=changes`)).entries;
    expect(change).toMatchObject({
      client_id: clientId,
      seq: 2,
      actor_kind: 'user',
      actor_id: manager.id,
      ip: '127.0.0.1',
      action: 'crm.client_upserted',
      summary: 'Changed: contact phone',
    });
    expect(change!.actor_name).toBeTruthy();
    expect(Date.now() - Date.parse(change!.occurred_at)).toBeLessThan(60_000);
    expect(JSON.stringify(change)).not.toContain('0999');
    // the same state published again (a redelivery, a re-publish) adds nothing
    const again = await inject(manager.token, 'PATCH', `/api/crm/clients/${clientId}`, { contact_phone: '020 7946 0999' });
    expect(again.statusCode).toBe(200);
    await inject(mlro.token, 'GET', AML_ROUTES.file(clientId)); // a later event to wait for
    await waitFor(async () => (await audit(`client_id=${clientId}&kind=views`)).total >= 1, 'the AML view');
    expect((await audit(`client_id=${clientId}&kind=changes`)).total).toBe(2);
  });

  it('viewing an AML file and the client record each add one entry with who and from where', async () => {
    const views = (await audit(`client_id=${clientId}&kind=views`)).entries;
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({
      actor_id: mlro.id,
      ip: '127.0.0.1',
      action: 'aml.record_viewed',
      summary: 'Viewed the AML file: AML file',
    });
    expect((await inject(staff.token, 'GET', `/api/crm/clients/${clientId}`)).statusCode).toBe(200);
    await waitFor(async () => (await audit(`client_id=${clientId}&kind=views`)).total === 2, 'the record view');
    expect((await audit(`client_id=${clientId}&kind=views`)).entries[0]).toMatchObject({
      actor_id: staff.id,
      action: 'crm.record_viewed',
      summary: 'Viewed the client record: Audit Trail Ltd',
    });
    // per member of staff
    const byMlro = await audit(`actor_id=${mlro.id}`);
    expect(byMlro.entries.length).toBeGreaterThan(0);
    expect(byMlro.entries.every((e) => e.actor_id === mlro.id)).toBe(true);
  });

  it('the chain check passes, refuses an UPDATE, and finds a row altered behind the trigger', async () => {
    const ok = await inject(manager.token, 'GET', `/api/records/audit/chain?client_id=${clientId}`);
    expect(ok.json()).toMatchObject({
      intact: true,
      broken_at_seq: null,
      message: 'The audit trail is intact.',
    } satisfies Partial<ChainCheck>);
    expect(ok.json().entries).toBe(4);
    const db = gw.kit.runtime.db;
    await expect(
      db.execute(sql`update records.audit_entries set summary = 'nothing' where client_id = ${clientId} and seq = 2`),
    ).rejects.toThrow();
    // the table's owner can switch the trigger off: the chain still tells
    await db.execute(sql`alter table records.audit_entries disable trigger audit_entries_append_only`);
    await db.execute(sql`update records.audit_entries set actor_id = 'someone-else' where client_id = ${clientId} and seq = 2`);
    await db.execute(sql`alter table records.audit_entries enable trigger audit_entries_append_only`);
    const bad = (await inject(admin, 'GET', `/api/records/audit/chain?client_id=${clientId}`)).json() as ChainCheck;
    expect(bad).toMatchObject({
      intact: false,
      broken_at_seq: 2,
      message: 'The audit trail was altered: entry 2 does not match its chain.',
    });
  });

  it('exports CSV for the filters; who may read and export', async () => {
    const csv = await inject(manager.token, 'GET', `/api/records/audit/export.csv?client_id=${clientId}&kind=views`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('occurred_at,client_id,seq,actor_kind,actor_id,actor_name,ip,action,summary,hash');
    expect(lines).toHaveLength(3);
    expect(csv.body).toContain('Viewed the AML file: AML file');
    expect((await inject(mlro.token, 'GET', `/api/records/audit?client_id=${clientId}`)).statusCode).toBe(200);
    expect((await inject(mlro.token, 'GET', `/api/records/audit/export.csv`)).statusCode).toBe(403);
    for (const p of [staff, accountant]) {
      expect((await inject(p.token, 'GET', `/api/records/audit?client_id=${clientId}`)).statusCode).toBe(403);
      expect((await inject(p.token, 'GET', `/api/records/audit/export.csv`)).statusCode).toBe(403);
    }
    expect((await inject(admin, 'GET', '/api/records/audit?from=2026-13-01')).statusCode).toBe(400);
  });

  it('opening an identity document is recorded as such, with the file name', async () => {
    await waitFor(
      async () =>
        (await inject(admin, 'GET', '/api/documents/clients?limit=100'))
          .json()
          .clients.some((c: { client_id: string }) => c.client_id === clientId),
      'the client in the documents directory',
    );
    const body = multipart({ client_id: clientId, document_type: 'identity_document', description: 'Passport' }, [
      { name: 'passport.pdf', type: 'application/pdf', data: SAMPLES.pdf() },
    ]);
    const up = await gw.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...bearer(admin), ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const docId = (await inject(admin, 'GET', `/api/documents?client_id=${clientId}&limit=5`)).json().documents[0].id as string;
    expect((await inject(manager.token, 'GET', `/api/documents/${docId}/download`)).statusCode).toBe(200);
    await waitFor(
      async () => (await audit(`client_id=${clientId}&kind=views&actor_id=${manager.id}`)).entries[0]?.action === 'documents.record_viewed',
      'the download recorded',
    );
    expect((await audit(`client_id=${clientId}&kind=views&actor_id=${manager.id}`)).entries[0]).toMatchObject({
      summary: 'Opened an identity document: passport.pdf',
      ip: '127.0.0.1',
    });
  });
});

describe('retention', () => {
  const docsOf = async (clientId: string) =>
    (await inject(admin, 'GET', `/api/documents?client_id=${clientId}&limit=50`)).json().documents as Array<{
      id: string;
      filename: string;
    }>;

  async function upload(clientId: string, name: string) {
    await waitFor(
      async () =>
        (await inject(admin, 'GET', '/api/documents/clients?limit=100'))
          .json()
          .clients.some((c: { client_id: string }) => c.client_id === clientId),
      'the client in the documents directory',
    );
    const body = multipart({ client_id: clientId, document_type: 'bank_statements', description: 'Statement' }, [
      { name, type: 'application/pdf', data: SAMPLES.pdf() },
    ]);
    const r = await gw.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...bearer(admin), ...body.headers },
      payload: body.payload,
    });
    expect(r.statusCode, r.body).toBe(201);
  }

  async function publishCompany(clientId: string) {
    const data: EventData<'deadlines.company_refreshed'> = {
      clientId,
      companyNumber: '01234567',
      companyName: 'LEFT LTD',
      companyStatus: 'active',
      officers: [{ name: 'SMITH, Jane', officer_role: 'director', appointed_on: '2020-01-01', resigned_on: null }],
      pscs: [],
      changes: [],
    };
    await gw.kit.runtime.bus.publish(TOPICS.deadlines, [
      { key: clientId, envelope: makeEnvelope('deadlines.company_refreshed', data, { kind: 'system', id: null }) },
    ]);
  }

  /** A client with a signed letter, a document and an AML file, who left on `leftOn`. */
  async function leaver(tag: string, leftOn: string, hold = false) {
    const owner = await makePerson(gw, `rec.${tag}@x.co.uk`, ['client']);
    const clientId = await addClient(`${tag} Trading Ltd`, { user_id: owner.id, package_name: 'Growth', subscription_status: 'active' });
    await upload(clientId, `${tag}-bank.pdf`);
    await publishCompany(clientId);
    await waitFor(async () => (await inject(owner.token, 'GET', '/api/engagement/mine')).json().clients?.[0]?.to_sign, 'the letter');
    const letterId = (await inject(owner.token, 'GET', '/api/engagement/mine')).json().clients[0].to_sign.id;
    const signed = await inject(owner.token, 'POST', `/api/engagement/letters/${letterId}/sign`, { full_name: 'Jane Smith', agree: true });
    expect(signed.statusCode, signed.body).toBe(200);
    await waitFor(async () => (await docsOf(clientId)).length === 2, 'the document and the signed letter filed');
    await waitFor(async () => (await inject(admin, 'GET', AML_ROUTES.file(clientId))).json().current?.people?.length > 0, 'the AML file');
    const r = await inject(admin, 'PUT', `/api/records/retention/clients/${clientId}`, {
      relationship_ended_on: leftOn,
      legal_hold: hold,
      hold_reason: hold ? 'Claim' : null,
    });
    expect(r.statusCode, r.body).toBe(200);
    return { clientId, owner };
  }

  it('the daily run removes documents, letters and the AML file of a client who left on 2020-01-31; a hold and a 2023 leaver keep everything', async () => {
    const gone = await leaver('Gone', '2020-01-31');
    const held = await leaver('Held', '2020-01-31', true);
    const recent = await leaver('Recent', '2023-06-30');
    const files = await gw.kit.runtime.db.execute<{ file_path: string; client_id: string }>(
      sql`select client_id, file_path from documents.client_documents`,
    );
    const goneFiles = files.rows.filter((f) => f.client_id === gone.clientId).map((f) => join(storageDir, f.file_path));
    expect(goneFiles).toHaveLength(2);
    expect(goneFiles.every((f) => existsSync(f))).toBe(true);

    const dry = await inject(admin, 'POST', '/api/records/retention/run', { dry_run: true });
    expect(dry.statusCode, dry.body).toBe(200);
    const plan = dry.json() as RetentionRun;
    expect(plan.day).toBe('2026-11-26');
    expect(
      plan.decisions
        .filter((d) => d.client_id === gone.clientId)
        .map((d) => d.record_type)
        .sort(),
    ).toEqual(['aml_file', 'documents', 'engagement_letters']);
    expect(plan.decisions.some((d) => d.client_id === held.clientId || d.client_id === recent.clientId)).toBe(false);
    expect((await docsOf(gone.clientId)).length).toBe(2); // a dry run removes nothing

    const run = (await inject(admin, 'POST', '/api/records/retention/run', { dry_run: false })).json() as RetentionRun;
    let report: RetentionRun | undefined;
    await waitFor(async () => {
      report = ((await inject(admin, 'GET', '/api/records/retention/runs')).json().runs as RetentionRun[]).find((x) => x.id === run.id);
      return report!.answered >= 4; // documents twice (documents, letters' PDFs), engagement, aml
    }, 'the services answered');
    const labels = report!.removed.filter((x) => x.client_id === gone.clientId).map((x) => `${x.record_type}: ${x.label}`);
    expect(labels).toEqual(
      expect.arrayContaining([
        'documents: Gone-bank.pdf',
        expect.stringMatching(/^engagement_letters: Engagement letter version 1, signed/),
        expect.stringMatching(/^aml_file: AML file/),
      ]),
    );
    expect(report!.removed.some((x) => x.client_id !== gone.clientId)).toBe(false);
    await waitFor(async () => (await docsOf(gone.clientId)).length === 0, 'the documents gone');
    await waitFor(async () => goneFiles.every((f) => !existsSync(f)), 'the files deleted from storage');
    expect((await inject(admin, 'GET', AML_ROUTES.file(gone.clientId))).json().current?.people ?? []).toHaveLength(0);
    expect((await inject(gone.owner.token, 'GET', '/api/engagement/mine')).json().clients[0]?.letters ?? []).toHaveLength(0);
    for (const kept of [held, recent]) {
      expect(await docsOf(kept.clientId)).toHaveLength(2);
      expect((await inject(admin, 'GET', AML_ROUTES.file(kept.clientId))).json().current.people.length).toBeGreaterThan(0);
      expect((await inject(kept.owner.token, 'GET', '/api/engagement/mine')).json().clients[0].letters).toHaveLength(1);
    }
  });

  it('the schedule is edited by an administrator within the legal minimums', async () => {
    const below = await inject(admin, 'PUT', '/api/records/retention/schedule/aml_file', { years: 4, trigger: 'relationship_end' });
    expect(below.statusCode).toBe(400);
    expect(below.json().error.message).toBe('AML file (customer due diligence) must be kept at least 5 years.');
    const earlier = await inject(admin, 'PUT', '/api/records/retention/schedule/documents', { years: 8, trigger: 'record_date' });
    expect(earlier.json().error.message).toBe(
      'Documents (accounting and tax records) must be kept from the end of the client relationship.',
    );
    const ok = await inject(admin, 'PUT', '/api/records/retention/schedule/documents', { years: 8, trigger: 'relationship_end' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().rules.find((r: { record_type: string }) => r.record_type === 'documents')).toMatchObject({
      years: 8,
      minimum_years: 6,
    });
    for (const p of [manager, mlro, staff, accountant])
      expect(
        (await inject(p.token, 'PUT', '/api/records/retention/schedule/documents', { years: 9, trigger: 'relationship_end' })).statusCode,
      ).toBe(403);
  });
});

describe('subject-access export', () => {
  /** A client user at their own business, with a document they uploaded, their signed letter and a message. */
  async function person(first: string, company: string) {
    const owner = await makePerson(gw, `rec.${first.toLowerCase()}.smith@x.co.uk`, ['client']);
    const clientId = await addClient(company, {
      user_id: owner.id,
      package_name: 'Growth',
      subscription_status: 'active',
      contact_name: `${first} Smith`,
    });
    await waitFor(async () => (await inject(owner.token, 'GET', '/api/engagement/mine')).json().clients?.[0]?.to_sign, 'the letter');
    const letterId = (await inject(owner.token, 'GET', '/api/engagement/mine')).json().clients[0].to_sign.id;
    expect(
      (await inject(owner.token, 'POST', `/api/engagement/letters/${letterId}/sign`, { full_name: `${first} Smith`, agree: true }))
        .statusCode,
    ).toBe(200);
    await waitFor(
      async () =>
        (await inject(admin, 'GET', '/api/documents/clients?limit=100'))
          .json()
          .clients.some((c: { client_id: string }) => c.client_id === clientId),
      'the client in the documents directory',
    );
    const body = multipart({ client_id: clientId, document_type: 'receipts', description: 'Receipts' }, [
      { name: `${first.toLowerCase()}-receipts.pdf`, type: 'application/pdf', data: SAMPLES.pdf() },
    ]);
    const up = await gw.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...bearer(owner.token), ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    await waitFor(async () => (await inject(owner.token, 'GET', `/api/requests/threads/${clientId}`)).statusCode === 200, 'the thread');
    const m = await inject(owner.token, 'POST', `/api/requests/threads/${clientId}/messages`, {
      body: `Message from ${first} about the ${company} accounts`,
    });
    expect(m.statusCode, m.body).toBe(201);
    return { owner, clientId };
  }

  it('holds their profile, uploaded documents, signed letter and messages, and nothing of the other Smith; downloadable once', async () => {
    const alice = await person('Alice', 'Smith Bakery Ltd');
    const bob = await person('Bob', 'Smith Joinery Ltd');
    const body = { client_id: alice.clientId, user_id: alice.owner.id, person_name: 'Alice Smith' };
    for (const p of [manager, mlro, staff, accountant, alice.owner])
      expect((await inject(p.token, 'POST', '/api/records/subject-access', body)).statusCode).toBe(403);
    const logged = await inject(admin, 'POST', '/api/records/subject-access', body);
    expect(logged.statusCode, logged.body).toBe(201);
    expect(logged.json()).toMatchObject({ requested_on: '2026-11-26', due_on: '2026-12-26', status: 'gathering', expected: 4 });
    const id = logged.json().id as string;
    await waitFor(
      async () =>
        ((await inject(admin, 'GET', '/api/records/subject-access')).json().requests as SubjectAccess[]).find((r) => r.id === id)
          ?.status === 'ready',
      'the archive built',
    );
    const dl = await inject(admin, 'GET', `/api/records/subject-access/${id}/download`);
    expect(dl.statusCode, dl.body).toBe(200);
    expect(dl.headers['content-type']).toBe('application/zip');
    const files = readZip(dl.rawPayload);
    const paths = [...files.keys()];
    expect(paths).toEqual(
      expect.arrayContaining([
        'README.txt',
        'crm/profile.json',
        'documents/documents.json',
        'engagement/letter-v1-signed.pdf',
        'engagement/letter-v1.txt',
        'requests/messages.json',
        'audit/entries.json',
      ]),
    );
    expect(paths.some((p) => p.startsWith('documents/files/') && p.endsWith('alice-receipts.pdf'))).toBe(true);
    expect(files.get('crm/profile.json')!.toString()).toContain('Smith Bakery Ltd');
    expect(files.get('requests/messages.json')!.toString()).toContain('Message from Alice about the Smith Bakery Ltd accounts');
    expect(files.get('engagement/letter-v1-signed.pdf')!.subarray(0, 5).toString()).toBe('%PDF-');
    for (const [path, content] of files) {
      const text = content.toString('latin1');
      for (const other of ['Joinery', 'Bob', 'bob-receipts', bob.clientId, bob.owner.id])
        expect(text, `${path} holds ${other}`).not.toContain(other);
    }
    const again = await inject(admin, 'GET', `/api/records/subject-access/${id}/download`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('The archive has already been downloaded once; log a new request for another copy.');
    const after = ((await inject(admin, 'GET', '/api/records/subject-access')).json().requests as SubjectAccess[]).find(
      (r) => r.id === id,
    )!;
    expect(after).toMatchObject({ status: 'downloaded', downloaded_at: clock.toISOString() });
    expect(after.downloaded_by_name).toBeTruthy();
  });
});
