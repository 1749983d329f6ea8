// The practice as an ACSP (issue #30): a verification it records rests on the person's AML evidence,
// shows on the person in the identity verification view (deadlines, by event), is never changed, and
// cannot be deleted within seven years. Through the all-in-one gateway on a real PostgreSQL, with the
// local Companies House server listing 09876543's people.
import { ensureInitialAdmin } from '@countinghouse/identity';
import { makeEnvelope } from '@countinghouse/kit';
import { createTestKit, waitFor } from '@countinghouse/kit/testing';
import {
  ACSP_MESSAGES,
  ACSP_ROUTES,
  AML_ROUTES,
  TOPICS,
  isPersonalCode,
  type AmlFile,
  type EventData,
  type IdentityList,
} from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeAllInOne } from '../../../gateway/src/compose.js';
import { ADMIN, bearer, login, makePerson, type Person, type TestGateway } from '../../../gateway/test/helpers.js';
import { acmeIdentityCompany, startFakeCompaniesHouse, type FakeCompaniesHouse } from '../../deadlines/test/fake-companies-house.js';
import { multipart, SAMPLES } from '../../documents/test/helpers.js';
import { acspDeletable, acspKeepUntil } from '../src/domain/acsp.js';

const TODAY = '2026-11-23';
let gw: TestGateway;
let ch: FakeCompaniesHouse;
let storageDir = '';
let admin = '';
let manager: Person;
let staff: Person;
let accountant: Person;
let otherAccountant: Person;
let owner: Person;
const clientId = randomUUID();
const CHARLES = 'officer:director:COG, Charles';
const DIANA = 'officer:director:SPROCKET, Diana';

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  gw.app.inject({ method, url, headers: bearer(token), payload });

async function evidenceFor(personKey: string): Promise<string> {
  const f = (await call('GET', AML_ROUTES.file(clientId), manager.token)).json() as AmlFile;
  const names: Record<string, string> = { [CHARLES]: 'COG, Charles', [DIANA]: 'SPROCKET, Diana' };
  const person = f.current.people.find((p) => p.name === names[personKey])!;
  const body = multipart({ client_id: clientId, document_type: 'aml_evidence', description: 'Passport' }, [
    { name: 'passport.pdf', type: 'application/pdf', data: SAMPLES.pdf() },
  ]);
  const up = await gw.app.inject({
    method: 'POST',
    url: '/api/documents',
    headers: { ...bearer(manager.token), ...body.headers },
    payload: body.payload,
  });
  expect(up.statusCode, up.body).toBe(201);
  const documentId = up.json().documents[0].id as string;
  const r = await call('POST', AML_ROUTES.evidence(clientId, person.id), manager.token, {
    document_id: documentId,
    method: 'video',
    checked_on: TODAY,
  });
  expect(r.statusCode, r.body).toBe(200);
  return documentId;
}

const view = async (query: string) =>
  (await call('GET', `/api/deadlines/identity-verification?client_id=${clientId}&${query}`, admin)).json() as IdentityList;

beforeAll(async () => {
  ch = await startFakeCompaniesHouse();
  ch.companies.set('09876543', acmeIdentityCompany());
  const kit = await createTestKit();
  storageDir = mkdtempSync(join(tmpdir(), 'ch-acsp-test-'));
  const app = await composeAllInOne({
    runtime: kit.runtime,
    signer: kit.signer,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    frontendDir: null,
    signInMax: 1000,
    publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'Test Practice', phone: '0100', email: 'a@b.c' } }),
    services: {
      documents: { storageDir },
      deadlines: { companiesHouse: { apiKey: ch.apiKey, baseUrl: ch.url }, today: () => TODAY },
      aml: { today: () => TODAY },
    },
  });
  await ensureInitialAdmin(kit.runtime.db, ADMIN);
  gw = { kit, app, close: async () => (await app.close(), await kit.close()) };
  admin = (await login(gw.app)).json().session_token;
  manager = await makePerson(gw, 'acsp.manager@x.co.uk', ['manager']);
  staff = await makePerson(gw, 'acsp.staff@x.co.uk', ['staff']);
  accountant = await makePerson(gw, 'acsp.acc@x.co.uk', ['accountant']);
  otherAccountant = await makePerson(gw, 'acsp.acc2@x.co.uk', ['accountant']);
  owner = await makePerson(gw, 'acsp.owner@x.co.uk', ['client']);
  const data: EventData<'crm.client_upserted'> = {
    clientId,
    userId: owner.id,
    companyName: 'Acme Widgets Ltd',
    contactName: 'Alice Widget',
    contactEmail: 'alice@acme.co.uk',
    packageName: 'Growth',
    monthlyFee: 100,
    subscriptionStatus: 'active',
    assignedAccountantId: accountant.id,
    businessType: 'limited',
  };
  await gw.kit.runtime.bus.publish(TOPICS.crm, [
    { key: clientId, envelope: makeEnvelope('crm.client_upserted', data, { kind: 'system', id: null }) },
  ]);
  await waitFor(async () => (await call('GET', `/api/deadlines/clients/${clientId}`, admin)).statusCode === 200, 'client in deadlines');
  const linked = await call('PUT', `/api/deadlines/clients/${clientId}`, admin, {
    company_number: '09876543',
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
  });
  expect(linked.statusCode, linked.body).toBe(200);
  await waitFor(async () => {
    const r = await call('GET', AML_ROUTES.file(clientId), manager.token);
    return r.statusCode === 200 && (r.json() as AmlFile).current.people.length === 5;
  }, 'the AML file lists the people from Companies House');
}, 60_000);

afterAll(async () => {
  await gw?.close();
  await ch?.close();
  rmSync(storageDir, { recursive: true, force: true });
});

describe('retention and the personal code, as rules', () => {
  it.each([
    ['2026-11-23', '2033-11-22', '2033-11-22', false],
    ['2026-11-23', '2033-11-22', '2033-11-23', true],
    ['2028-02-29', '2035-02-28', '2035-02-28', false], // seven years from a leap day end with 28 Feb; deletable 1 Mar
    ['2028-02-29', '2035-02-28', '2035-03-01', true],
  ])('verified %s: kept until %s; deletable on %s? %s', (verifiedOn, keepUntil, day, deletable) => {
    expect(acspKeepUntil(verifiedOn)).toBe(keepUntil);
    expect(acspDeletable(verifiedOn, day)).toBe(deletable);
  });

  it.each([
    ['AB12CD34EF5', true],
    ['ab12 cd34 ef5', true],
    ['AB12-CD34-EF5', true],
    ['AB12CD34EF', false],
    ['AB12CD34EF56', false],
    ['AB12CD34EF!', false],
  ])('personal code %s: %s', (code, ok) => expect(isPersonalCode(code)).toBe(ok));
});

describe('recording a verification the practice made as an ACSP', () => {
  it("needs the practice's ACSP number and AML supervisor first (managers set them; the number is format-checked)", async () => {
    const doc = await evidenceFor(CHARLES);
    const early = await call('POST', ACSP_ROUTES.records(clientId), manager.token, {
      person_key: CHARLES,
      personal_code: 'AB12CD34EF5',
      verified_on: TODAY,
      evidence_document_ids: [doc],
    });
    expect([early.statusCode, early.json().error.message]).toEqual([400, ACSP_MESSAGES.settingsMissing]);
    const settings = { acsp_number: 'acsp-0123456', aml_supervisor: 'Institute of Chartered Accountants in England and Wales' };
    expect((await call('PUT', ACSP_ROUTES.settings, staff.token, settings)).statusCode).toBe(403);
    expect((await call('PUT', ACSP_ROUTES.settings, manager.token, { ...settings, acsp_number: 'ACSP 01!' })).statusCode).toBe(400);
    const saved = await call('PUT', ACSP_ROUTES.settings, manager.token, settings);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await call('GET', ACSP_ROUTES.settings, staff.token)).json()).toMatchObject({ acsp_number: 'ACSP-0123456' });
  });

  it('refuses a personal code of the wrong format, a person not in the file, and evidence not of this person', async () => {
    const f = (await call('GET', AML_ROUTES.file(clientId), manager.token)).json() as AmlFile;
    const doc = f.current.people.find((p) => p.name === 'COG, Charles')!.evidence[0]!.document_id;
    const bad = await call('POST', ACSP_ROUTES.records(clientId), manager.token, {
      person_key: CHARLES,
      personal_code: 'AB12CD34E',
      verified_on: TODAY,
      evidence_document_ids: [doc],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(ACSP_MESSAGES.personalCodeFormat);
    const stranger = await call('POST', ACSP_ROUTES.records(clientId), manager.token, {
      person_key: 'officer:director:NOBODY, Ned',
      personal_code: 'AB12CD34EF5',
      verified_on: TODAY,
      evidence_document_ids: [doc],
    });
    expect([stranger.statusCode, stranger.json().error.message]).toEqual([400, ACSP_MESSAGES.personNotInFile]);
    const notHers = await call('POST', ACSP_ROUTES.records(clientId), manager.token, {
      person_key: DIANA,
      personal_code: 'AB12CD34EF5',
      verified_on: TODAY,
      evidence_document_ids: [doc],
    });
    expect([notHers.statusCode, notHers.json().error.message]).toEqual([400, ACSP_MESSAGES.evidenceNotOfPerson]);
    const future = await call('POST', ACSP_ROUTES.records(clientId), manager.token, {
      person_key: CHARLES,
      personal_code: 'AB12CD34EF5',
      verified_on: '2026-11-24',
      evidence_document_ids: [doc],
    });
    expect(future.statusCode).toBe(400);
    expect((await call('GET', ACSP_ROUTES.records(clientId), manager.token)).json().items).toEqual([]);
  });

  it('a recorded verification appears on the person and in the view; the confirmation statement counts one fewer', async () => {
    expect((await view('filter=not_verified')).total).toBe(4);
    const doc = (await call('GET', AML_ROUTES.file(clientId), manager.token))
      .json()
      .current.people.find((p: { name: string }) => p.name === 'COG, Charles').evidence[0].document_id as string;
    const r = await call('POST', ACSP_ROUTES.records(clientId), manager.token, {
      person_key: CHARLES,
      personal_code: 'ab12 cd34 ef5',
      verified_on: TODAY,
      evidence_document_ids: [doc],
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().record).toMatchObject({
      person_key: CHARLES,
      person_name: 'COG, Charles',
      personal_code: 'AB12CD34EF5',
      acsp_number: 'ACSP-0123456',
      verified_on: TODAY,
      evidence: [{ document_id: doc, filename: 'passport.pdf' }],
      keep_until: '2033-11-22',
    });
    await waitFor(async () => (await view('filter=not_verified')).total === 3, 'deadlines learns of the verification');
    const charles = (await view('filter=verified')).people.find((p) => p.person_key === CHARLES)!;
    expect(charles).toMatchObject({
      status: 'verified',
      status_text: 'verified 23 Nov 2026',
      verified_source: 'practice',
      verified_on: TODAY,
    });
    expect(charles.verified_by).toBeTruthy();
    const ds = (await call('GET', `/api/deadlines/clients/${clientId}/deadlines`, admin)).json().deadlines as Array<{
      kind: string;
      period: string;
      blocked?: string | null;
    }>;
    expect(ds.some((d) => d.kind === 'identity_verification' && d.period.startsWith('COG, Charles'))).toBe(false);
    expect(ds.find((d) => d.kind === 'confirmation_statement')?.blocked).toBe('blocked: 3 people not verified');
    const audit = (await call('GET', AML_ROUTES.file(clientId), manager.token)).json().audit as Array<{ detail: string }>;
    expect(audit.some((a) => a.detail.includes('Identity of COG, Charles verified for Companies House by the practice'))).toBe(true);
  });

  it('deleting a record within seven years is refused; after them it goes and the person is no longer verified by it', async () => {
    const [record] = (await call('GET', ACSP_ROUTES.records(clientId), admin)).json().items as Array<{ id: string }>;
    const early = await call('DELETE', ACSP_ROUTES.record(clientId, record!.id), admin);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(ACSP_MESSAGES.retentionRunning('22 Nov 2033'));
    expect((await call('DELETE', ACSP_ROUTES.record(clientId, record!.id), manager.token)).statusCode).toBe(403);
    // Never changed in place, even by SQL.
    await expect(gw.kit.runtime.pool.query(`update aml.identity_verifications set personal_code = 'ZZ12CD34EF5'`)).rejects.toThrow(
      /never changed/,
    );
    await expect(gw.kit.runtime.pool.query(`delete from aml.identity_verifications where id = $1`, [record!.id])).rejects.toThrow(
      /seven years/,
    );

    // One made more than seven years ago (Diana, verified 1 Nov 2019) may be deleted.
    const doc = await evidenceFor(DIANA);
    const old = await call('POST', ACSP_ROUTES.records(clientId), manager.token, {
      person_key: DIANA,
      personal_code: 'ZX98YW76VU5',
      verified_on: '2019-11-01',
      evidence_document_ids: [doc],
    });
    expect(old.statusCode, old.body).toBe(201);
    await waitFor(async () => (await view('filter=overdue')).total === 0, 'Diana verified by the practice');
    const del = await call('DELETE', ACSP_ROUTES.record(clientId, old.json().record.id), admin);
    expect(del.statusCode, del.body).toBe(200);
    await waitFor(async () => (await view('filter=overdue')).people.map((p) => p.person_key).join() === DIANA, 'Diana overdue again');
  });

  it('who may see and record: staff and the assigned accountant see; others and clients do not; only ACSP roles record', async () => {
    expect((await call('GET', ACSP_ROUTES.records(clientId), staff.token)).statusCode).toBe(200);
    expect((await call('GET', ACSP_ROUTES.records(clientId), accountant.token)).statusCode).toBe(200);
    expect((await call('GET', ACSP_ROUTES.records(clientId), otherAccountant.token)).statusCode).toBe(404);
    expect((await call('GET', ACSP_ROUTES.records(clientId), owner.token)).statusCode).toBe(403);
    const input = { person_key: CHARLES, personal_code: 'AB12CD34EF5', verified_on: TODAY, evidence_document_ids: ['x'] };
    expect((await call('POST', ACSP_ROUTES.records(clientId), staff.token, input)).statusCode).toBe(403);
    expect((await call('POST', ACSP_ROUTES.records(clientId), accountant.token, input)).statusCode).toBe(403);
    expect((await call('POST', ACSP_ROUTES.records(clientId), owner.token, input)).statusCode).toBe(403);
    expect((await gw.app.inject({ method: 'GET', url: ACSP_ROUTES.records(clientId) })).statusCode).toBe(401);
  });
});
