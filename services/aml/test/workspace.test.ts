import { ensureInitialAdmin } from '@countinghouse/identity';
import { makeEnvelope } from '@countinghouse/kit';
import { createTestKit } from '@countinghouse/kit/testing';
import {
  AML_ROUTES,
  TOPICS,
  WORKSPACE_MESSAGES,
  WORKSPACE_ROUTES,
  type AmlFile,
  type EventData,
  type RiskAnswers,
  type WorkReply,
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

// Due diligence that can be completed for a sole trader with no Companies House link (issue 26): the
// proprietor added by hand, evidence, the risk questions, sent for approval, returned by the MLRO with a
// reason, sent again and approved; and the MLRO's My work.
let gw: TestGateway;
let storageDir = '';
// (the real day in London: My work's AML items are dated by the day the route runs, not the injected one)
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
  new Date(),
);
let adminSession = '';
const p = {} as Record<'manager' | 'mlro' | 'staff' | 'accountant' | 'otherAccountant' | 'client', Person>;
const clientId = randomUUID();
type Caller = keyof typeof p | 'adminSession';
const tokenOf = (c: Caller) => (c === 'adminSession' ? adminSession : p[c].token);
const call = (c: Caller, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  gw.app.inject({ method, url, headers: bearer(tokenOf(c)), payload });

const plain: RiskAnswers = {
  sector: 'standard',
  cash_intensive: false,
  jurisdiction: 'uk',
  pep: false,
  complex_structure: false,
  non_face_to_face: false,
  source_of_funds: 'clear',
};
const proprietor = {
  name: 'Dan Morgan',
  date_of_birth: '1984-06-02',
  address: '12 Mill Lane, Cardiff CF10 1AA',
  role: 'owner',
  ownership_band: '75_or_more',
};

beforeAll(async () => {
  const kit = await createTestKit();
  storageDir = mkdtempSync(join(tmpdir(), 'ch-aml-ws-'));
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
  adminSession = (await login(app)).json().session_token;
  p.manager = await makePerson(gw, 'aw.manager@x.co.uk', ['manager']);
  p.mlro = await makePerson(gw, 'aw.mlro@x.co.uk', ['manager', 'mlro']);
  p.staff = await makePerson(gw, 'aw.staff@x.co.uk', ['staff']);
  p.accountant = await makePerson(gw, 'aw.acc@x.co.uk', ['accountant']);
  p.otherAccountant = await makePerson(gw, 'aw.acc2@x.co.uk', ['accountant']);
  p.client = await makePerson(gw, 'aw.client@x.co.uk', ['client']);
  const data: EventData<'crm.client_upserted'> = {
    clientId,
    userId: p.client.id,
    companyName: 'Dan Morgan Plumbing',
    contactName: 'Dan Morgan',
    contactEmail: 'dan@morganplumbing.co.uk',
    packageName: 'Sole Trader Package',
    monthlyFee: 40,
    subscriptionStatus: 'active',
    assignedAccountantId: p.accountant.id,
    businessType: 'sole_trader',
  };
  await kit.runtime.bus.publish(TOPICS.crm, [
    { key: clientId, envelope: makeEnvelope('crm.client_upserted', data, { kind: 'system', id: null }) },
  ]);
}, 60_000);
afterAll(async () => {
  await gw?.close();
  rmSync(storageDir, { recursive: true, force: true });
});

describe('a sole trader’s due diligence, completed by hand', () => {
  let personId = '';

  it('an administrator adds the proprietor by hand; only those who prepare files may', async () => {
    for (const c of ['staff', 'accountant', 'client'] as const)
      expect((await call(c, 'POST', AML_ROUTES.people(clientId), proprietor)).statusCode, c).toBe(403);
    const r = await call('adminSession', 'POST', AML_ROUTES.people(clientId), proprietor);
    expect(r.statusCode, r.body).toBe(200);
    const f = r.json() as AmlFile;
    expect(f.business_type).toBe('sole_trader');
    expect(f.company_number).toBeNull();
    expect(f.current.people).toEqual([expect.objectContaining({ ...proprietor, source: 'manual', evidence: [] })]);
    personId = f.current.people[0]!.id;
  });

  it('people are edited and removed by hand', async () => {
    const added = await call('manager', 'POST', AML_ROUTES.people(clientId), {
      ...proprietor,
      name: 'Someone Else',
      role: 'other',
      ownership_band: 'none',
    });
    const extra = (added.json() as AmlFile).current.people.find((x) => x.name === 'Someone Else')!;
    const edited = await call('manager', 'PUT', AML_ROUTES.person(clientId, personId), {
      ...proprietor,
      address: '14 Mill Lane, Cardiff CF10 1AB',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((edited.json() as AmlFile).current.people.find((x) => x.id === personId)!.address).toBe('14 Mill Lane, Cardiff CF10 1AB');
    const removed = await call('manager', 'DELETE', AML_ROUTES.person(clientId, extra.id));
    expect((removed.json() as AmlFile).current.people.map((x) => x.name)).toEqual(['Dan Morgan']);
  });

  it('evidence and the risk questions, then sent for approval; the MLRO sees it in My work', async () => {
    const body = multipart({ client_id: clientId, document_type: 'aml_evidence', description: 'Passport' }, [
      { name: 'passport.pdf', type: 'application/pdf', data: SAMPLES.pdf() },
    ]);
    const up = await gw.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...bearer(p.manager.token), ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBeLessThan(300);
    const ev = await call('manager', 'POST', AML_ROUTES.evidence(clientId, personId), {
      document_id: up.json().documents[0].id,
      method: 'in_person',
      checked_on: today,
    });
    expect(ev.statusCode, ev.body).toBe(200);
    expect((await call('manager', 'PUT', AML_ROUTES.risk(clientId), plain)).statusCode).toBe(200);
    const sent = await call('manager', 'POST', AML_ROUTES.submit(clientId));
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().status).toBe('awaiting_approval');

    const work = (await call('mlro', 'GET', WORKSPACE_ROUTES.workAml)).json() as WorkReply;
    expect(work.items).toEqual([
      expect.objectContaining({
        kind: 'aml_review',
        client_id: clientId,
        client_name: 'Dan Morgan Plumbing',
        due_on: today,
        bucket: 'this_week',
      }),
    ]);
    // A manager without the MLRO role has no approvals of theirs; staff see no AML files at all.
    expect(((await call('manager', 'GET', WORKSPACE_ROUTES.workAml)).json() as WorkReply).items).toEqual([]);
    expect(((await call('staff', 'GET', `${WORKSPACE_ROUTES.workAml}?who=everyone`)).json() as WorkReply).items).toEqual([]);
    expect(((await call('manager', 'GET', `${WORKSPACE_ROUTES.workAml}?who=everyone`)).json() as WorkReply).items).toHaveLength(1);
    expect((await call('accountant', 'GET', `${WORKSPACE_ROUTES.workAml}?who=everyone`)).statusCode).toBe(403);
    expect((await call('client', 'GET', WORKSPACE_ROUTES.workAml)).statusCode).toBe(403);
  });

  it('the MLRO returns it with a reason; nobody else may', async () => {
    for (const c of ['adminSession', 'manager', 'staff', 'accountant', 'client'] as const)
      expect((await call(c, 'POST', WORKSPACE_ROUTES.amlReturn(clientId), { reason: 'Proof of address missing' })).statusCode, c).toBe(403);
    expect((await call('mlro', 'POST', WORKSPACE_ROUTES.amlReturn(clientId), { reason: '   ' })).statusCode).toBe(400);
    const r = await call('mlro', 'POST', WORKSPACE_ROUTES.amlReturn(clientId), { reason: 'Proof of address missing' });
    expect(r.statusCode, r.body).toBe(200);
    const f = r.json() as AmlFile;
    expect(f).toMatchObject({ status: 'in_progress', outstanding: true, current: { state: 'draft' } });
    expect(f.returned).toMatchObject({ reason: 'Proof of address missing', by_name: expect.any(String) });
    expect(f.audit[0]).toMatchObject({ action: 'return', detail: 'Returned version 1 for changes. Reason: Proof of address missing' });
    const again = await call('mlro', 'POST', WORKSPACE_ROUTES.amlReturn(clientId), { reason: 'x' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(WORKSPACE_MESSAGES.amlNotAwaiting);
    const { rows } = await gw.kit.runtime.pool.query(
      `select type, envelope from aml.outbox where type in ('aml.file_submitted', 'aml.file_returned') order by id`,
    );
    expect(rows.map((x) => [x.type, x.envelope.data.clientId])).toEqual([
      ['aml.file_submitted', clientId],
      ['aml.file_returned', clientId],
    ]);
    expect(rows[1].envelope.data.reason).toBe('Proof of address missing');
  });

  it('sent again and approved by the MLRO: no longer outstanding', async () => {
    const resent = await call('manager', 'POST', AML_ROUTES.submit(clientId));
    expect(resent.statusCode, resent.body).toBe(200);
    expect((resent.json() as AmlFile).returned).toBeNull();
    const ok = await call('mlro', 'POST', AML_ROUTES.approve(clientId), { note: 'Passport and utility bill seen in person' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'approved', outstanding: false, approved_version: 1 });
    const s = await call('accountant', 'GET', `${AML_ROUTES.statuses}?client_ids=${clientId}`);
    expect(s.json().statuses[0]).toMatchObject({ outstanding: false });
    expect(((await call('mlro', 'GET', WORKSPACE_ROUTES.workAml)).json() as WorkReply).items).toEqual([]);
  });
});
