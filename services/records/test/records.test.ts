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
import { randomUUID } from 'node:crypto';
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
    publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'Test Practice', phone: '0100', email: 'a@b.c' } }),
    services: { documents: { storageDir }, records: { now: () => clock, schedules: false } },
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
      client_name: 'Audit Trail Ltd',
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
    expect(lines[0]).toBe('occurred_at,client_id,client_name,seq,actor_kind,actor_id,actor_name,ip,action,summary,hash');
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).every((l) => l.split(',')[2] === 'Audit Trail Ltd')).toBe(true);
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

describe('subject-access export', { timeout: 60_000 }, () => {
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
    expect(logged.json()).toMatchObject({ requested_on: '2026-11-26', due_on: '2026-12-26', status: 'gathering', expected: 6 });
    const id = logged.json().id as string;
    await waitFor(
      async () =>
        ((await inject(admin, 'GET', '/api/records/subject-access')).json().requests as SubjectAccess[]).find((r) => r.id === id)
          ?.status === 'ready',
      'the archive built',
      30_000,
      200,
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

// ---- session 9: AML and identity verification in the archive; directors, PSCs and contacts; ACSP
// records and audit entries under the retention schedule ----

const db = () => gw.kit.runtime.db;

async function publishPeople(clientId: string, officers: string[], pscs: string[] = []) {
  const data: EventData<'deadlines.company_refreshed'> = {
    clientId,
    companyNumber: '07654321',
    companyName: 'PEOPLE LTD',
    companyStatus: 'active',
    officers: officers.map((name) => ({ name, officer_role: 'director', appointed_on: '2020-01-01', resigned_on: null })),
    pscs: pscs.map((name) => ({
      name,
      kind: 'individual-person-with-significant-control',
      notified_on: '2020-01-01',
      ceased_on: null,
      natures_of_control: [],
    })),
    changes: [],
  };
  await gw.kit.runtime.bus.publish(TOPICS.deadlines, [
    { key: clientId, envelope: makeEnvelope('deadlines.company_refreshed', data, { kind: 'system', id: null }) },
  ]);
  await waitFor(
    async () =>
      ((await inject(admin, 'GET', AML_ROUTES.file(clientId))).json().current?.people?.length ?? 0) >= officers.length + pscs.length,
    'the AML file people',
  );
  return (await inject(admin, 'GET', AML_ROUTES.file(clientId))).json().current.people as Array<{ id: string; name: string }>;
}

/** An ACSP verification as aml holds it (and announces it: records and deadlines follow the event). */
async function verification(clientId: string, personKey: string, personName: string, verifiedOn: string, code: string) {
  await db().execute(sql`insert into aml.identity_verifications
    (client_id, person_key, person_name, personal_code, acsp_number, aml_supervisor, verified_on, evidence_document_ids, recorded_by_name)
    values (${clientId}, ${personKey}, ${personName}, ${code}, 'ACSP-1', 'ICAEW', ${verifiedOn}, '[]'::jsonb, 'Test')`);
  const data: EventData<'aml.identity_verification_recorded'> = {
    clientId,
    personKey,
    personName,
    verifiedOn,
    byName: 'Test',
    withdrawn: false,
  };
  await gw.kit.runtime.bus.publish(TOPICS.aml, [
    { key: clientId, envelope: makeEnvelope('aml.identity_verification_recorded', data, { kind: 'system', id: null }) },
  ]);
}

/** Companies House's identity-verification row of a person, as the deadlines service keeps it. */
async function idvRow(clientId: string, personKey: string, name: string, position: number) {
  await waitFor(
    async () => (await db().execute(sql`select 1 from deadlines.client_directory where client_id = ${clientId}`)).rows.length === 1,
    'the client in deadlines',
  );
  await db()
    .execute(sql`insert into deadlines.identity_people (client_id, person_key, position, name, person_kind, verified_on, verified_source, due_on)
    values (${clientId}, ${personKey}, ${position}, ${name}, 'director', '2025-06-01', 'companies_house', '2026-01-31')`);
}

async function exportFor(body: object): Promise<Map<string, Buffer>> {
  const logged = await inject(admin, 'POST', '/api/records/subject-access', body);
  expect(logged.statusCode, logged.body).toBe(201);
  const id = logged.json().id as string;
  // (the archive gathers from six services: up to 30 s on a loaded CI machine, where 10 s ran out once)
  let last = '';
  await waitFor(
    async () => {
      const r = await inject(admin, 'GET', '/api/records/subject-access');
      const mine = (r.json().requests as SubjectAccess[] | undefined)?.find((x) => x.id === id);
      last = mine ? `${mine.status}` : `${r.statusCode} ${r.body.slice(0, 200)}`;
      return mine?.status === 'ready';
    },
    'the archive built',
    30_000,
    200,
  ).catch((e: Error) => {
    throw new Error(`${e.message}; last answer: ${last}`);
  });
  const dl = await inject(admin, 'GET', `/api/records/subject-access/${id}/download`);
  expect(dl.statusCode, dl.body).toBe(200);
  return readZip(dl.rawPayload);
}

function holdsNothingOf(files: Map<string, Buffer>, others: string[]) {
  for (const [path, content] of files) {
    const text = content.toString('latin1');
    for (const other of others) expect(text, `${path} holds ${other}`).not.toContain(other);
  }
}

describe('subject access: AML, identity verification, directors and PSCs', { timeout: 60_000 }, () => {
  let ann: Person;
  let annClient = '';
  let benClient = '';
  let people: Array<{ id: string; name: string }> = [];

  beforeAll(async () => {
    ann = await makePerson(gw, 'rec.ann.taylor@x.co.uk', ['client']);
    annClient = await addClient('Taylor Cakes Ltd', { user_id: ann.id, contact_name: 'Ann Taylor', subscription_status: 'active' });
    benClient = await addClient('Taylor Roofing Ltd', {
      contact_name: 'Ben Taylor',
      contact_email: 'ben@roof.co.uk',
      subscription_status: 'active',
    });
    people = await publishPeople(annClient, ['TAYLOR, Ann', 'OKAFOR, Chidi']);
    const benPeople = await publishPeople(benClient, ['TAYLOR, Ben']);
    await verification(annClient, 'officer:director:TAYLOR, Ann', 'TAYLOR, Ann', '2025-03-03', 'ANNCODE0001');
    await verification(annClient, 'officer:director:OKAFOR, Chidi', 'OKAFOR, Chidi', '2025-03-04', 'CHIDICODE01');
    await verification(benClient, 'officer:director:TAYLOR, Ben', 'TAYLOR, Ben', '2025-03-05', 'BENCODE0001');
    await idvRow(annClient, 'officer:director:TAYLOR, Ann', 'TAYLOR, Ann', 0);
    await idvRow(annClient, 'officer:director:OKAFOR, Chidi', 'OKAFOR, Chidi', 1);
    await idvRow(benClient, 'officer:director:TAYLOR, Ben', 'TAYLOR, Ben', 0);
    expect(benPeople.map((p) => p.name)).toEqual(['TAYLOR, Ben']);
    await waitFor(
      async () => (await audit(`client_id=${benClient}`)).entries.some((e) => e.summary.includes('TAYLOR, Ben')),
      'the audit entry',
    );
  }, 120_000);

  it("a client user's archive holds their AML person record, risk assessment, checks and identity verifications; no one else's", async () => {
    const files = await exportFor({ client_id: annClient, user_id: ann.id, person_name: 'Ann Taylor' });
    const dd = JSON.parse(files.get('aml/due-diligence.json')!.toString());
    expect(dd.client).toBe('Taylor Cakes Ltd');
    expect(dd.versions[0].people.map((p: { name: string }) => p.name)).toEqual(['TAYLOR, Ann']);
    expect(dd.versions[0]).toHaveProperty('risk_assessment');
    expect(dd.versions[0].people[0]).toHaveProperty('checks');
    const idv = JSON.parse(files.get('aml/identity-verifications.json')!.toString());
    expect(idv.map((v: { personal_code: string }) => v.personal_code)).toEqual(['ANNCODE0001']);
    expect(idv[0].keep_until).toBe('2032-03-02');
    const ch = JSON.parse(files.get('deadlines/identity-verification.json')!.toString());
    expect(ch).toMatchObject([{ name: 'TAYLOR, Ann', verified_on: '2025-06-01', due_on: '2026-01-31' }]);
    holdsNothingOf(files, ['OKAFOR', 'Chidi', 'CHIDICODE01', 'Roofing', 'Ben', 'BENCODE0001', benClient]);
  });

  it("a director picked from the client's people gets their own records only; a namesake on another client stays out", async () => {
    const r = await inject(admin, 'POST', '/api/records/subject-access', {
      client_id: benClient,
      subject: 'person',
      person_name: 'TAYLOR, Ben',
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.message).toBe('Choose the director or PSC.');
    const ann2 = people.find((p) => p.name === 'TAYLOR, Ann')!;
    const files = await exportFor({ client_id: annClient, subject: 'person', person_key: ann2.id, person_name: ann2.name });
    const dd = JSON.parse(files.get('aml/due-diligence.json')!.toString());
    expect(dd.versions[0].people.map((p: { name: string }) => p.name)).toEqual(['TAYLOR, Ann']);
    expect(dd.versions[0]).not.toHaveProperty('risk_assessment'); // the company's risk is not the director's
    expect(JSON.parse(files.get('aml/identity-verifications.json')!.toString())).toHaveLength(1);
    expect(files.has('deadlines/identity-verification.json')).toBe(true);
    // no sign-in account given: no profile, uploads, letters or messages
    expect([...files.keys()].filter((p) => /^(crm|documents|engagement|requests)\//.test(p))).toEqual([]);
    const audited = JSON.parse(files.get('audit/entries.json')!.toString()) as Array<{ summary: string }>;
    expect(audited.some((e) => e.summary === 'Identity verification recorded: TAYLOR, Ann')).toBe(true);
    holdsNothingOf(files, ['OKAFOR', 'CHIDICODE01', 'Roofing', 'Ben', 'BENCODE0001', benClient]);

    const ben = await exportFor({
      client_id: benClient,
      subject: 'person',
      person_key: 'officer:director:TAYLOR, Ben',
      person_name: 'TAYLOR, Ben',
    });
    expect(JSON.parse(ben.get('aml/identity-verifications.json')!.toString())).toMatchObject([{ personal_code: 'BENCODE0001' }]);
    holdsNothingOf(ben, ['Ann', 'ANNCODE0001', 'Cakes', annClient, 'OKAFOR']);
  });

  it("a director who is also the portal user gets the messages they wrote, not the practice's side of the thread", async () => {
    // (requests learns Ann's client from crm's events; on a loaded CI machine that took more than 10 s once)
    let last = '';
    await waitFor(
      async () => {
        const r = await inject(ann.token, 'GET', `/api/requests/threads/${annClient}`);
        last = `${r.statusCode} ${r.body.slice(0, 200)}`;
        return r.statusCode === 200;
      },
      'the thread',
      30_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}; last answer: ${last}`);
    });
    expect(
      (await inject(ann.token, 'POST', `/api/requests/threads/${annClient}/messages`, { body: 'Ann asks about VAT' })).statusCode,
    ).toBe(201);
    const reply = await inject(admin, 'POST', `/api/requests/threads/${annClient}/messages`, { body: 'The practice answers about VAT' });
    expect(reply.statusCode, reply.body).toBe(201);
    const ann2 = people.find((p) => p.name === 'TAYLOR, Ann')!;
    const asDirector = await exportFor({
      client_id: annClient,
      subject: 'person',
      person_key: ann2.id,
      person_name: ann2.name,
      user_id: ann.id,
    });
    const mine = JSON.parse(asDirector.get('requests/messages.json')!.toString()) as Array<{ body: string }>;
    expect(mine.map((m) => m.body)).toEqual(['Ann asks about VAT']);
    const asUser = await exportFor({ client_id: annClient, user_id: ann.id, person_name: 'Ann Taylor' });
    const thread = JSON.parse(asUser.get('requests/messages.json')!.toString()) as Array<{ body: string }>;
    expect(thread.map((m) => m.body)).toEqual(['Ann asks about VAT', 'The practice answers about VAT']);
  }, 60_000);

  it("the client's contact gets the contact details held about them", async () => {
    const files = await exportFor({ client_id: benClient, subject: 'contact', person_name: 'Ben Taylor' });
    expect(JSON.parse(files.get('crm/contact.json')!.toString())).toMatchObject({ name: 'Ben Taylor', email: 'ben@roof.co.uk' });
    expect(files.has('crm/profile.json')).toBe(false);
    // Ben Taylor is also the company's director: his own AML person record, by name
    expect(JSON.parse(files.get('aml/due-diligence.json')!.toString()).versions[0].people).toHaveLength(1);
    holdsNothingOf(files, ['Ann', 'Cakes', annClient, 'OKAFOR']);
  });
});

describe('retention: ACSP verification records and the audit trail', () => {
  it('a verification past its seven years is listed by the dry run and erased through aml; a newer one and a held client keep theirs', async () => {
    const a = await addClient('Verified Old Ltd', { subscription_status: 'active' });
    const held = await addClient('Verified Held Ltd', { subscription_status: 'active' });
    await publishPeople(a, ['REID, Ola', 'REID, Pat']);
    await publishPeople(held, ['REID, Quin']);
    await verification(a, 'officer:director:REID, Ola', 'REID, Ola', '2018-03-01', 'OLACODE0001');
    await verification(a, 'officer:director:REID, Pat', 'REID, Pat', '2021-03-01', 'PATCODE0001');
    await verification(held, 'officer:director:REID, Quin', 'REID, Quin', '2018-03-01', 'QUINCODE001');
    expect(
      (await inject(admin, 'PUT', `/api/records/retention/clients/${held}`, { legal_hold: true, hold_reason: 'Claim' })).statusCode,
    ).toBe(200);
    await waitFor(
      async () => (await db().execute(sql`select 1 from records.acsp_verifications where client_id in (${a}, ${held})`)).rows.length === 3,
      'records knows the verifications',
    );
    const schedule = (await inject(admin, 'GET', '/api/records/retention/schedule')).json().rules as Array<{ record_type: string }>;
    expect(schedule.find((r) => r.record_type === 'acsp_verifications')).toMatchObject({
      years: 7,
      trigger: 'record_date',
      minimum_years: 7,
    });
    const shorter = await inject(admin, 'PUT', '/api/records/retention/schedule/acsp_verifications', { years: 6, trigger: 'record_date' });
    expect(shorter.json().error.message).toBe('ACSP identity verification records must be kept at least 7 years.');

    const plan = (await inject(admin, 'POST', '/api/records/retention/run', { dry_run: true })).json() as RetentionRun;
    const acsp = plan.decisions.filter((d) => d.record_type === 'acsp_verifications');
    expect(acsp.filter((d) => d.client_id === a)).toMatchObject([{ recorded_before: '2019-11-26' }]);
    expect(acsp.find((d) => d.client_id === a)!.reason).toContain('REID, Ola (1 Mar 2018)');
    expect(acsp.find((d) => d.client_id === a)!.reason).not.toContain('Pat');
    expect(acsp.some((d) => d.client_id === held)).toBe(false);
    const count = async (c: string) =>
      (await db().execute(sql`select person_name from aml.identity_verifications where client_id = ${c}`)).rows;
    expect(await count(a)).toHaveLength(2); // a dry run removes nothing

    const run = (await inject(admin, 'POST', '/api/records/retention/run', { dry_run: false })).json() as RetentionRun;
    let report: RetentionRun | undefined;
    await waitFor(async () => {
      report = ((await inject(admin, 'GET', '/api/records/retention/runs')).json().runs as RetentionRun[]).find((x) => x.id === run.id);
      return report!.removed.some((x) => x.client_id === a);
    }, 'aml answered');
    expect(report!.removed.filter((x) => x.client_id === a)).toMatchObject([
      { record_type: 'acsp_verifications', label: 'ACSP identity verification of REID, Ola (1 Mar 2018)' },
    ]);
    expect(await count(a)).toEqual([{ person_name: 'REID, Pat' }]);
    expect(await count(held)).toHaveLength(1);
    await waitFor(
      async () => (await db().execute(sql`select 1 from records.acsp_verifications where client_id = ${a}`)).rows.length === 1,
      'the withdrawal followed',
    );
  });

  it('audit entries past six years go as a prefix behind a checkpoint: the check passes for the rest and still finds an altered one', async () => {
    const c = randomUUID();
    const view = (label: string, occurredAt?: string) => ({
      ...makeEnvelope(
        'crm.record_viewed',
        { clientId: c, record: 'client_record', recordId: null, label },
        { kind: 'user', id: 'u-old', name: 'Old Staff' },
      ),
      ...(occurredAt ? { occurredAt } : {}),
    });
    for (const n of [1, 2, 3]) {
      await gw.kit.runtime.bus.publish(TOPICS.crm, [{ key: c, envelope: view(`Old view ${n}`, `2019-0${n}-01T09:00:00.000Z`) }]);
      await waitFor(async () => (await audit(`client_id=${c}`)).total === n, 'the old entry');
    }
    await gw.kit.runtime.bus.publish(TOPICS.crm, [{ key: c, envelope: view('Recent view') }]);
    await waitFor(async () => (await audit(`client_id=${c}`)).total === 4, 'the recent entry');
    expect((await inject(admin, 'PUT', `/api/records/retention/clients/${c}`, { legal_hold: false })).statusCode).toBe(200);

    const plan = (await inject(admin, 'POST', '/api/records/retention/run', { dry_run: true })).json() as RetentionRun;
    expect(plan.decisions.find((d) => d.client_id === c && d.record_type === 'audit_entries')).toMatchObject({
      recorded_before: '2020-11-26',
      reason: 'Records dated before 26 Nov 2020: kept 6 years from their date: 3 entries',
    });
    expect((await audit(`client_id=${c}`)).total).toBe(4); // a dry run removes nothing

    const run = (await inject(admin, 'POST', '/api/records/retention/run', { dry_run: false })).json() as RetentionRun;
    const report = ((await inject(admin, 'GET', '/api/records/retention/runs')).json().runs as RetentionRun[]).find(
      (x) => x.id === run.id,
    )!;
    expect(report.removed.filter((x) => x.client_id === c)).toMatchObject([
      { record_type: 'audit_entries', label: 'Audit entries 1–3 (3)' },
    ]);
    expect((await audit(`client_id=${c}`)).entries.map((e) => [e.seq, e.summary])).toEqual([[4, 'Viewed the client record: Recent view']]);
    expect(
      (await audit('page_size=200')).entries.some(
        (e) => e.action === 'records.audit_erased' && e.summary.includes(`entries 1–3 of client ${c}`),
      ),
    ).toBe(true);
    expect((await inject(admin, 'GET', `/api/records/audit/chain?client_id=${c}`)).json()).toMatchObject({ intact: true, entries: 1 });
    expect((await inject(admin, 'GET', '/api/records/audit/chain')).json()).toMatchObject({ intact: true }); // the practice's chain
    // a second run finds nothing more to remove
    const again = (await inject(admin, 'POST', '/api/records/retention/run', { dry_run: true })).json() as RetentionRun;
    expect(again.decisions.some((d) => d.client_id === c)).toBe(false);

    // new entries continue after the rest; the check passes
    for (const n of [2, 3]) {
      await gw.kit.runtime.bus.publish(TOPICS.crm, [{ key: c, envelope: view(`Newer view ${n}`) }]);
      await waitFor(async () => (await audit(`client_id=${c}`)).total === n, 'the newer entry');
    }
    expect((await inject(admin, 'GET', `/api/records/audit/chain?client_id=${c}`)).json()).toMatchObject({ intact: true, entries: 3 });
    // the checkpoint cannot be removed or moved back
    await expect(db().execute(sql`delete from records.audit_checkpoints where chain = ${c}`)).rejects.toThrow();
    await expect(db().execute(sql`update records.audit_checkpoints set seq = 1 where chain = ${c}`)).rejects.toThrow();
    // an altered remaining entry is still found, and so is one removed behind the run's back
    await db().execute(sql`alter table records.audit_entries disable trigger audit_entries_append_only`);
    await db().execute(sql`update records.audit_entries set summary = 'nothing' where client_id = ${c} and seq = 6`);
    await db().execute(sql`alter table records.audit_entries enable trigger audit_entries_append_only`);
    expect((await inject(admin, 'GET', `/api/records/audit/chain?client_id=${c}`)).json()).toMatchObject({
      intact: false,
      broken_at_seq: 6,
    });
    await db().execute(sql`delete from records.audit_entries where client_id = ${c} and seq = 4`);
    expect((await inject(admin, 'GET', `/api/records/audit/chain?client_id=${c}`)).json()).toMatchObject({
      intact: false,
      broken_at_seq: 5,
    });
  });
});
