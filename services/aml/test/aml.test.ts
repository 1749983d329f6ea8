import { ensureInitialAdmin } from '@countinghouse/identity';
import { makeEnvelope } from '@countinghouse/kit';
import { createTestKit, waitFor } from '@countinghouse/kit/testing';
import {
  AML_MESSAGES,
  AML_ROUTES,
  TOPICS,
  type AmlFile,
  type AmlList,
  type AmlVersion,
  type EventData,
  type RiskAnswers,
} from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeAllInOne } from '../../../gateway/src/compose.js';
import { ADMIN, bearer, login, makePerson, type Person, type TestGateway } from '../../../gateway/test/helpers.js';
import { multipart, SAMPLES } from '../../documents/test/helpers.js';
import { runDaily } from '../src/use-cases/daily.js';

// The AML service through the all-in-one gateway on a real PostgreSQL: the documents, crm and deadlines
// events it learns from arrive on the runtime's bus as their relays would publish them.
let gw: TestGateway;
let storageDir = '';
let today = '2026-11-23';
let admin = '';
let manager: Person;
let mlro: Person;
let staff: Person;
let accountant: Person;
let otherAccountant: Person;
let owner: Person;
const clientId = randomUUID();
const NAME = 'Cashflow Cafe Ltd';

const plain: RiskAnswers = {
  sector: 'standard',
  cash_intensive: false,
  jurisdiction: 'uk',
  pep: false,
  complex_structure: false,
  non_face_to_face: false,
  source_of_funds: 'clear',
};

async function publishClient(status = 'active') {
  const data: EventData<'crm.client_upserted'> = {
    clientId,
    userId: owner.id,
    companyName: NAME,
    contactName: 'Jane Smith',
    contactEmail: 'jane@cashflow.co.uk',
    packageName: 'Growth',
    monthlyFee: 100,
    subscriptionStatus: status,
    assignedAccountantId: accountant.id,
    businessType: 'limited',
  };
  await gw.kit.runtime.bus.publish(TOPICS.crm, [
    { key: clientId, envelope: makeEnvelope('crm.client_upserted', data, { kind: 'system', id: null }) },
  ]);
}

async function publishCompany(officers: EventData<'deadlines.company_refreshed'>['officers']) {
  const data: EventData<'deadlines.company_refreshed'> = {
    clientId,
    companyNumber: '01234567',
    companyName: NAME.toUpperCase(),
    companyStatus: 'active',
    officers,
    pscs: [
      {
        name: 'Mrs Jane Smith',
        kind: 'individual-person-with-significant-control',
        notified_on: '2020-01-01',
        ceased_on: null,
        natures_of_control: ['ownership-of-shares-75-to-100-percent'],
      },
    ],
    changes: [],
  };
  await gw.kit.runtime.bus.publish(TOPICS.deadlines, [
    { key: clientId, envelope: makeEnvelope('deadlines.company_refreshed', data, { kind: 'system', id: null }) },
  ]);
}

const DIRECTOR = { name: 'SMITH, Jane', officer_role: 'director', appointed_on: '2020-01-01', resigned_on: null };
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  gw.app.inject({ method, url, headers: bearer(token), payload });
const file = async (token = manager.token) => {
  const r = await call('GET', AML_ROUTES.file(clientId), token);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as AmlFile;
};

async function uploadEvidence(token: string, forClient = clientId) {
  const body = multipart({ client_id: forClient, document_type: 'aml_evidence', description: 'Passport' }, [
    { name: 'passport.pdf', type: 'application/pdf', data: SAMPLES.pdf() },
  ]);
  return gw.app.inject({ method: 'POST', url: '/api/documents', headers: { ...bearer(token), ...body.headers }, payload: body.payload });
}

beforeAll(async () => {
  const kit = await createTestKit();
  storageDir = mkdtempSync(join(tmpdir(), 'ch-aml-test-'));
  const app = await composeAllInOne({
    runtime: kit.runtime,
    signer: kit.signer,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    frontendDir: null,
    signInMax: 1000,
    publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'Test Practice', phone: '0100', email: 'a@b.c' } }),
    services: { documents: { storageDir }, aml: { today: () => today } },
  });
  await ensureInitialAdmin(kit.runtime.db, ADMIN);
  gw = { kit, app, close: async () => (await app.close(), await kit.close()) };
  admin = (await login(gw.app)).json().session_token;
  manager = await makePerson(gw, 'aml.manager@x.co.uk', ['manager']);
  mlro = await makePerson(gw, 'aml.mlro@x.co.uk', ['manager', 'mlro']);
  staff = await makePerson(gw, 'aml.staff@x.co.uk', ['staff']);
  accountant = await makePerson(gw, 'aml.acc@x.co.uk', ['accountant']);
  otherAccountant = await makePerson(gw, 'aml.acc2@x.co.uk', ['accountant']);
  owner = await makePerson(gw, 'aml.owner@x.co.uk', ['client']);
  await publishClient();
  await publishCompany([DIRECTOR]);
  await waitFor(
    async () => (await call('GET', AML_ROUTES.file(clientId), manager.token)).json().current?.people?.length === 2,
    'people from Companies House',
  );
}, 60_000);
afterAll(async () => {
  await gw?.close();
  rmSync(storageDir, { recursive: true, force: true });
});

describe('the AML file of a company', () => {
  it('lists its director and PSC from Companies House, and the client shows Due diligence outstanding', async () => {
    const f = await file();
    expect(f.current.people.map((p) => [p.name, p.role, p.ownership_band, p.source])).toEqual([
      ['SMITH, Jane', 'director', 'none', 'companies_house'],
      ['Mrs Jane Smith', 'psc', '75_or_more', 'companies_house'],
    ]);
    expect(f).toMatchObject({
      status: 'not_started',
      outstanding: true,
      company_number: '01234567',
      current: { version: 1, state: 'draft' },
    });
    const s = await call('GET', `${AML_ROUTES.statuses}?client_ids=${clientId}`, manager.token);
    expect(s.json().statuses).toEqual([{ client_id: clientId, status: 'not_started', outstanding: true }]);
  });

  it('refuses to go for approval before evidence and the risk are there, with the reason', async () => {
    const r = await call('POST', AML_ROUTES.submit(clientId), manager.token);
    expect(r.statusCode).toBe(400);
    expect(r.json().error.message).toBe(AML_MESSAGES.submitNeedsEvidence('SMITH, Jane'));
  });

  it('identity evidence is uploaded through documents, never by or for the client, and never listed with their documents', async () => {
    expect((await uploadEvidence(owner.token)).statusCode).toBe(403);
    expect((await uploadEvidence(accountant.token)).statusCode).toBe(403);
    const up = await uploadEvidence(manager.token);
    expect(up.statusCode, up.body).toBe(201);
    const docId = up.json().documents[0].id as string;
    const mine = await call('GET', '/api/documents', owner.token);
    expect(mine.json().documents.map((d: { id: string }) => d.id)).not.toContain(docId);
    const all = await call('GET', '/api/documents', admin);
    expect(all.json().documents.map((d: { id: string }) => d.id)).not.toContain(docId);
    expect((await call('GET', `/api/documents/${docId}`, owner.token)).statusCode).toBe(404);
    expect((await call('GET', `/api/documents/${docId}`, otherAccountant.token)).statusCode).toBe(404);
    expect((await call('GET', `/api/documents/${docId}`, accountant.token)).statusCode).toBe(200);
    expect((await call('POST', `/api/documents/${docId}/view-link`, mlro.token)).statusCode).toBe(200);
  });

  it('evidence, the risk questions (one cash-intensive answer: high risk, enhanced), submission, MLRO approval', async () => {
    const f0 = await file();
    for (const person of f0.current.people) {
      const up = await uploadEvidence(manager.token);
      const r = await call('POST', AML_ROUTES.evidence(clientId, person.id), manager.token, {
        document_id: up.json().documents[0].id,
        method: 'video',
        checked_on: today,
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    // A document id that is not this client's evidence is refused.
    const stray = await call('POST', AML_ROUTES.evidence(clientId, f0.current.people[0]!.id), manager.token, {
      document_id: randomUUID(),
      method: 'video',
      checked_on: today,
    });
    expect(stray.statusCode).toBe(400);

    const risk = await call('PUT', AML_ROUTES.risk(clientId), manager.token, { ...plain, cash_intensive: true });
    expect(risk.statusCode, risk.body).toBe(200);
    expect(risk.json().current.risk).toMatchObject({ level: 'high', due_diligence: 'enhanced', review_years: 1 });
    expect(risk.json().status).toBe('in_progress');
    expect(
      risk.json().current.people.every((p: { evidence: Array<{ filename: string }> }) => p.evidence[0]?.filename === 'passport.pdf'),
    ).toBe(true);

    const submitted = await call('POST', AML_ROUTES.submit(clientId), manager.token);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().status).toBe('awaiting_approval');

    // Staff without the MLRO permission cannot approve (a manager, an administrator's session).
    for (const token of [manager.token, admin, staff.token, accountant.token]) {
      const denied = await call('POST', AML_ROUTES.approve(clientId), token, { note: 'Looks fine' });
      expect(denied.statusCode).toBe(403);
    }
    const approved = await call('POST', AML_ROUTES.approve(clientId), mlro.token, {
      note: 'Passports seen on video; cash controls explained',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      status: 'approved',
      outstanding: false,
      approved_version: 1,
      current: { version: 1, state: 'approved', next_review_on: '2027-11-23', approved_by_name: expect.any(String) },
    });
    const s = await call('GET', `${AML_ROUTES.statuses}?client_ids=${clientId}`, accountant.token);
    expect(s.json().statuses[0]).toMatchObject({ status: 'approved', outstanding: false });
    const { rows } = await gw.kit.runtime.pool.query(`select envelope from aml.outbox where type = 'aml.file_approved'`);
    expect(rows.map((r) => r.envelope.data)).toEqual([
      expect.objectContaining({ clientId, riskLevel: 'high', dueDiligence: 'enhanced', nextReviewOn: '2027-11-23' }),
    ]);
  });

  it('the audit trail lists each step: prefill, views, uploads, changes, submission, approval', async () => {
    const f = await file();
    const actions = f.audit.map((a) => a.action);
    for (const a of ['prefill', 'view', 'upload', 'change', 'submit', 'approve']) expect(actions).toContain(a);
    expect(f.audit.filter((a) => a.action === 'upload')).toHaveLength(2);
    expect(f.audit.find((a) => a.action === 'approve')!.detail).toContain('High risk, enhanced due diligence, next review 23 Nov 2027');
  });
});

describe('who may see and change AML files', () => {
  it('a client never sees the file, not even their own business’s', async () => {
    expect((await call('GET', AML_ROUTES.file(clientId), owner.token)).statusCode).toBe(403);
    expect((await call('GET', AML_ROUTES.list, owner.token)).statusCode).toBe(403);
    expect((await call('GET', `${AML_ROUTES.statuses}?client_ids=${clientId}`, owner.token)).statusCode).toBe(403);
  });

  it('an accountant sees only their clients’ files, read only', async () => {
    const mine = await file(accountant.token);
    expect(mine.can).toEqual({ edit: false, approve: false, delete: false });
    expect((await call('GET', AML_ROUTES.file(clientId), otherAccountant.token)).statusCode).toBe(404);
    const list = (await call('GET', AML_ROUTES.list, otherAccountant.token)).json() as AmlList;
    expect(list.items.map((i) => i.client_id)).not.toContain(clientId);
    expect(((await call('GET', AML_ROUTES.list, accountant.token)).json() as AmlList).items.map((i) => i.client_id)).toEqual([clientId]);
    expect((await call('PUT', AML_ROUTES.risk(clientId), accountant.token, plain)).statusCode).toBe(403);
  });

  it('staff without an AML permission see nothing', async () => {
    expect((await call('GET', AML_ROUTES.file(clientId), staff.token)).statusCode).toBe(403);
  });
});

describe('versions', () => {
  it('editing an approved file makes version 2 and keeps version 1 readable and unchanged', async () => {
    const before = (await call('GET', AML_ROUTES.version(clientId, 1), manager.token)).json() as AmlVersion;
    const r = await call('POST', AML_ROUTES.people(clientId), manager.token, {
      name: 'Tom Smith',
      date_of_birth: '1980-05-01',
      address: '1 High Street, Leeds LS1 1AA',
      role: 'director',
      ownership_band: 'none',
    });
    expect(r.statusCode, r.body).toBe(200);
    const f = r.json() as AmlFile;
    expect(f.current).toMatchObject({ version: 2, state: 'draft' });
    expect(f.current.people.map((p) => p.name)).toContain('Tom Smith');
    // Version 1 stays in force (and readable) while version 2 is worked on.
    expect(f).toMatchObject({ status: 'approved', approved_version: 1 });
    const v1 = await call('GET', AML_ROUTES.version(clientId, 1), accountant.token);
    expect(v1.statusCode).toBe(200);
    expect(v1.json()).toEqual(before);
    expect((v1.json() as AmlVersion).people.map((p) => p.name)).not.toContain('Tom Smith');
    expect(f.versions.map((v) => [v.version, v.state])).toEqual([
      [2, 'draft'],
      [1, 'approved'],
    ]);
  });

  it('the database refuses to change an approved version in place', async () => {
    await expect(
      gw.kit.runtime.pool.query(
        `update aml.versions set content = '{"people":[],"risk_answers":null}' where client_id = $1 and version = 1`,
        [clientId],
      ),
    ).rejects.toThrow(/cannot be changed/);
  });

  it('a new director at Companies House joins the working version, not the approved one', async () => {
    await publishCompany([DIRECTOR, { name: 'BROWN, Sam', officer_role: 'director', appointed_on: '2026-11-01', resigned_on: null }]);
    await waitFor(async () => (await file()).current.people.some((p) => p.name === 'BROWN, Sam'), 'the new director');
    const v1 = (await call('GET', AML_ROUTES.version(clientId, 1), manager.token)).json() as AmlVersion;
    expect(v1.people.map((p) => p.name)).not.toContain('BROWN, Sam');
    expect((await file()).current.version).toBe(2);
  });
});

describe('review reminders', () => {
  it('opens one reminder per review date however often the daily job runs', async () => {
    const deps = {
      db: gw.kit.runtime.db,
      logger: pino({ level: 'silent' }),
      today: () => today,
      evidenceWaitMs: 0,
    };
    expect(await runDaily(deps, '2027-10-23')).toEqual({ announced: 0 });
    expect(await runDaily(deps, '2027-10-24')).toEqual({ announced: 1 });
    expect(await runDaily(deps, '2027-10-25')).toEqual({ announced: 0 });
    const { rows } = await gw.kit.runtime.pool.query(`select envelope from aml.outbox where type = 'aml.review_due'`);
    expect(rows.map((r) => r.envelope.data)).toEqual([
      expect.objectContaining({
        clientId,
        idempotencyKey: `aml-review:${clientId}:2027-11-23`,
        assigneeId: accountant.id,
        nextReviewOn: '2027-11-23',
      }),
    ]);
    // Downstream: crm opens one high-priority task for the accountant, notifications raise one.
    const key = `aml-review:${clientId}:2027-11-23`;
    const tasks = () =>
      gw.kit.runtime.pool.query(`select assignee_id, due_date::text, priority, title from crm.tasks where source_key = $1`, [key]);
    await waitFor(async () => (await tasks()).rows.length === 1, 'the review task');
    expect((await tasks()).rows[0]).toEqual({
      assignee_id: accountant.id,
      due_date: '2027-11-23',
      priority: 'high',
      title: `AML review: ${NAME}`,
    });
    const notes = () => gw.kit.runtime.pool.query(`select body from notifications.notifications where kind = 'aml_review_due'`);
    await waitFor(async () => (await notes()).rows.length === 1, 'the review notification');
    expect((await notes()).rows[0].body).toContain('due for review by 23 Nov 2027');
    // The event delivered again (another id, same key: a re-run) opens no second task.
    await gw.kit.runtime.bus.publish(TOPICS.aml, [{ key: clientId, envelope: { ...rows[0].envelope, id: randomUUID() } }]);
    await new Promise((r) => setTimeout(r, 300));
    expect((await tasks()).rows.length).toBe(1);
    today = '2027-10-24';
    expect((await file()).status).toBe('review_due');
    today = '2027-11-24';
    expect((await file()).status).toBe('expired');
    today = '2026-11-23';
  });
});

describe('retention (MLR 2017 reg. 40)', () => {
  it('refuses to delete while the client relationship continues, with the reason', async () => {
    const r = await call('DELETE', AML_ROUTES.file(clientId), admin, { confirm_client_name: NAME });
    expect(r.statusCode).toBe(409);
    expect(r.json().error.message).toBe(AML_MESSAGES.retentionNotEnded);
  });

  it('refuses to delete the file of a client cancelled less than five years ago, saying until when', async () => {
    await publishClient('cancelled');
    await waitFor(async () => (await file(admin)).retention.relationship_ended_on !== null, 'the relationship ended');
    const ended = (await file(admin)).retention.relationship_ended_on!;
    today = '2031-01-01';
    const r = await call('DELETE', AML_ROUTES.file(clientId), admin, { confirm_client_name: NAME });
    expect(r.statusCode).toBe(409);
    expect(r.json().error.message).toMatch(
      /^Records must be kept until \d{1,2} \w{3} 20\d\d, five years after the client relationship ended \(MLR 2017 reg\. 40\)\.$/,
    );
    expect(ended >= '2026-01-01').toBe(true);
    expect((await call('GET', AML_ROUTES.deletable, admin)).json().items).toEqual([]);
  });

  it('after five years an administrator deletes it, confirmed by name; the deletion is recorded and the evidence goes', async () => {
    const ended = (await file(admin)).retention.relationship_ended_on!;
    today = `${Number(ended.slice(0, 4)) + 6}-01-01`;
    expect((await call('GET', AML_ROUTES.deletable, admin)).json().items.map((i: { client_id: string }) => i.client_id)).toEqual([
      clientId,
    ]);
    expect((await call('DELETE', AML_ROUTES.file(clientId), manager.token, { confirm_client_name: NAME })).statusCode).toBe(403);
    expect((await call('DELETE', AML_ROUTES.file(clientId), admin, { confirm_client_name: 'Cashflow' })).statusCode).toBe(400);
    const { rows: docs } = await gw.kit.runtime.pool.query(
      `select id from documents.client_documents where document_type = 'aml_evidence'`,
    );
    expect(docs.length).toBe(3);
    const r = await call('DELETE', AML_ROUTES.file(clientId), admin, { confirm_client_name: NAME });
    expect(r.statusCode, r.body).toBe(200);
    const record = (await call('GET', AML_ROUTES.deletions, admin)).json().items;
    expect(record).toEqual([
      expect.objectContaining({ client_id: clientId, client_name: NAME, relationship_ended_on: ended, evidence_documents: 3 }),
    ]);
    await waitFor(
      async () =>
        (await gw.kit.runtime.pool.query(`select count(*)::int as n from documents.client_documents where document_type = 'aml_evidence'`))
          .rows[0].n === 0,
      'the evidence deleted by documents',
    );
    const { rows } = await gw.kit.runtime.pool.query(`select count(*)::int as n from aml.versions where client_id = $1`, [clientId]);
    expect(rows[0].n).toBe(0);
    today = '2026-11-23';
  });
});
