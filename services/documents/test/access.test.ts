import { LIMITS, type ClientDocument, type DocumentList } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, makePerson } from '../../../gateway/test/helpers.js';
import { signViewLink } from '../src/domain/signed-links.js';
import { multipart, SAMPLES, startDocumentsGateway, upsertClient, type DocumentsGateway } from './helpers.js';

/**
 * Who sees what (issue 4): admin, manager and staff see all; an accountant only the clients assigned
 * to them; a client only their own business. Enforced in every query, not just the UI.
 */
let gw: DocumentsGateway;
type Caller = 'admin' | 'acmeOwner' | 'brookOwner' | 'accountant' | 'otherAccountant' | 'staff' | 'manager';
const t = {} as Record<Caller, string>;
let acme: { clientId: string };
let brook: { clientId: string };
const docs: Record<string, ClientDocument> = {};

async function upload(
  token: string,
  fields: Record<string, string | undefined>,
  name: string,
  data = SAMPLES.pdf(),
  type = 'application/pdf',
) {
  const body = multipart(fields, [{ name, type, data }]);
  return gw.app.inject({ method: 'POST', url: '/api/documents', headers: { ...body.headers, ...bearer(token) }, payload: body.payload });
}

function get(url: string, token?: string) {
  return gw.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
}

beforeAll(async () => {
  gw = await startDocumentsGateway();
  t.admin = (await login(gw.app)).json().session_token;
  const acmeOwner = await makePerson(gw, 'owner@acme.co.uk', ['client']);
  const brookOwner = await makePerson(gw, 'owner@brook.co.uk', ['client']);
  const accountant = await makePerson(gw, 'ann.accountant@practice.co.uk', ['accountant']);
  t.acmeOwner = acmeOwner.token;
  t.brookOwner = brookOwner.token;
  t.accountant = accountant.token;
  t.otherAccountant = (await makePerson(gw, 'bob.accountant@practice.co.uk', ['accountant'])).token;
  t.staff = (await makePerson(gw, 'sam.staff@practice.co.uk', ['staff'])).token;
  t.manager = (await makePerson(gw, 'mia.manager@practice.co.uk', ['manager'])).token;
  acme = await upsertClient(gw, {
    companyName: 'Acme Bakery Ltd',
    contactEmail: 'Owner@Acme.co.uk',
    userId: acmeOwner.id,
    assignedAccountantId: accountant.id,
  });
  brook = await upsertClient(gw, { companyName: 'Brook Plumbing', contactEmail: 'owner@brook.co.uk', userId: brookOwner.id });

  // Staff upload for both clients; each owner uploads for their own business (no client_id needed).
  const plan: Array<[string, string, Record<string, string>, string, string?]> = [
    ['acmeVat', t.staff, { client_id: acme.clientId, document_type: 'vat', description: 'Q1 VAT workings' }, 'vat-q1.pdf'],
    ['acmePayroll', t.admin, { client_id: acme.clientId, document_type: 'payroll' }, 'March payslips.pdf'],
    ['brookCis', t.manager, { client_id: brook.clientId, document_type: 'cis', description: 'Subcontractor statements' }, 'cis.pdf'],
    ['acmeOwn', t.acmeOwner, { document_type: 'bookkeeping' }, 'Receipts April.pdf'],
    ['brookOwn', t.brookOwner, { document_type: 'general' }, 'Résumé £ 2026.pdf'],
  ];
  for (const [key, token, fields, name] of plan) {
    const res = await upload(token, fields, name);
    if (res.statusCode !== 201) throw new Error(`${key}: ${res.body}`);
    docs[key] = res.json().documents[0];
  }
});
afterAll(async () => {
  await gw?.close();
});

const ids = (l: DocumentList) => l.documents.map((d) => d.filename);

describe('listing', () => {
  it('shows all documents, newest first, to admin, manager and staff', async () => {
    for (const who of ['admin', 'manager', 'staff'] as const) {
      const res = await get('/api/documents', t[who]);
      expect(res.statusCode).toBe(200);
      expect(ids(res.json())).toEqual(['Résumé £ 2026.pdf', 'Receipts April.pdf', 'cis.pdf', 'March payslips.pdf', 'vat-q1.pdf']);
      expect(res.json().total).toBe(5);
    }
  });

  it("joins the client's company name and contact e-mail", async () => {
    const res = await get('/api/documents?search=cis', t.admin);
    expect(res.json().documents[0]).toMatchObject({ company_name: 'Brook Plumbing', contact_email: 'owner@brook.co.uk' });
  });

  it('shows a client only their own business, an accountant only assigned clients', async () => {
    expect(ids((await get('/api/documents', t.acmeOwner)).json())).toEqual(['Receipts April.pdf', 'March payslips.pdf', 'vat-q1.pdf']);
    expect(ids((await get('/api/documents', t.brookOwner)).json())).toEqual(['Résumé £ 2026.pdf', 'cis.pdf']);
    expect(ids((await get('/api/documents', t.accountant)).json())).toEqual(['Receipts April.pdf', 'March payslips.pdf', 'vat-q1.pdf']);
    expect((await get('/api/documents', t.otherAccountant)).json().total).toBe(0);
    // asking for another client's documents by id gives nothing
    expect((await get(`/api/documents?client_id=${acme.clientId}`, t.brookOwner)).json().total).toBe(0);
  });

  it('counts under the same rule (Total Documents, Active, Pending, Clients)', async () => {
    await gw.kit.runtime.pool.query(`update documents.client_documents set status = 'pending' where id = $1`, [docs.acmePayroll!.id]);
    await gw.kit.runtime.pool.query(`update documents.client_documents set status = 'completed' where id = $1`, [docs.brookCis!.id]);
    expect((await get('/api/documents/summary', t.admin)).json()).toEqual({ total: 5, active: 3, pending: 1, clients: 2 });
    expect((await get('/api/documents/summary', t.acmeOwner)).json()).toEqual({ total: 3, active: 2, pending: 1, clients: 1 });
    expect((await get('/api/documents/summary', t.brookOwner)).json()).toEqual({ total: 2, active: 1, pending: 0, clients: 1 });
    expect((await get('/api/documents/summary', t.otherAccountant)).json()).toEqual({ total: 0, active: 0, pending: 0, clients: 0 });
    expect((await get(`/api/documents/summary?client_id=${brook.clientId}`, t.staff)).json()).toMatchObject({ total: 2, clients: 1 });
    expect((await get('/api/documents/summary')).statusCode).toBe(401);
  });

  it('searches file name, description, company and contact e-mail, case-insensitively', async () => {
    const search = async (q: string) => ids((await get(`/api/documents?search=${encodeURIComponent(q)}`, t.admin)).json());
    expect(await search('PAYSLIPS')).toEqual(['March payslips.pdf']);
    expect(await search('subcontractor')).toEqual(['cis.pdf']);
    expect(await search('acme bakery')).toEqual(['Receipts April.pdf', 'March payslips.pdf', 'vat-q1.pdf']);
    expect(await search('OWNER@BROOK')).toEqual(['Résumé £ 2026.pdf', 'cis.pdf']);
    expect(await search('résumé')).toEqual(['Résumé £ 2026.pdf']);
    expect(await search('100%')).toEqual([]);
    expect(await search('_')).toEqual([]);
    // the client's search never reaches other clients
    expect(ids((await get('/api/documents?search=brook', t.acmeOwner)).json())).toEqual([]);
  });

  it('filters by type (with all), status (with all) and client, and pages on the server', async () => {
    const q = async (qs: string) => (await get(`/api/documents?${qs}`, t.admin)).json() as DocumentList;
    expect(ids(await q('type=vat'))).toEqual(['vat-q1.pdf']);
    expect((await q('type=all')).total).toBe(5);
    expect(ids(await q('status=pending'))).toEqual(['March payslips.pdf']);
    expect(ids(await q('status=completed'))).toEqual(['cis.pdf']);
    expect((await q('status=all')).total).toBe(5);
    expect(ids(await q(`client_id=${brook.clientId}`))).toEqual(['Résumé £ 2026.pdf', 'cis.pdf']);
    const p1 = await q('page=1&page_size=2');
    const p2 = await q('page=2&page_size=2');
    const p3 = await q('page=3&page_size=2');
    expect([...ids(p1), ...ids(p2), ...ids(p3)]).toEqual(ids(await q('page_size=100')));
    expect(p3).toMatchObject({ total: 5, page: 3, page_size: 2 });
    for (const bad of ['page_size=101', 'page=0', 'type=shoes', 'status=deleted']) {
      const res = await get(`/api/documents?${bad}`, t.admin);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('one document, view links, downloads', () => {
  it('answers 404 for documents the caller may not see (ids cannot be probed)', async () => {
    const other = docs.brookCis!.id;
    for (const who of ['acmeOwner', 'otherAccountant'] as const) {
      expect((await get(`/api/documents/${other}`, t[who])).statusCode).toBe(404);
      expect((await get(`/api/documents/${other}/download`, t[who])).statusCode).toBe(404);
      const link = await gw.app.inject({ method: 'POST', url: `/api/documents/${other}/view-link`, headers: bearer(t[who]) });
      expect(link.statusCode).toBe(404);
      expect(link.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Document not found' } });
    }
    // an id that does not exist at all looks the same
    expect((await get(`/api/documents/00000000-0000-4000-8000-000000000000`, t.admin)).statusCode).toBe(404);
  });

  it('refuses anonymous callers', async () => {
    for (const url of ['/api/documents', `/api/documents/${docs.acmeVat!.id}`, `/api/documents/${docs.acmeVat!.id}/download`]) {
      const res = await get(url);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHENTICATED');
    }
    const link = await gw.app.inject({ method: 'POST', url: `/api/documents/${docs.acmeVat!.id}/view-link` });
    expect(link.statusCode).toBe(401);
  });

  it('a client cannot upload for another client, by id or otherwise', async () => {
    const before = (await get('/api/documents/summary', t.admin)).json().total;
    const res = await upload(t.acmeOwner, { client_id: brook.clientId, document_type: 'vat' }, 'sneaky.pdf');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Client not found');
    const acc = await upload(t.otherAccountant, { client_id: acme.clientId, document_type: 'vat' }, 'sneaky.pdf');
    expect(acc.statusCode).toBe(404);
    // the assigned accountant may
    const ok = await upload(t.accountant, { client_id: acme.clientId, document_type: 'advisory' }, 'advice.pdf');
    expect(ok.statusCode).toBe(201);
    expect((await get('/api/documents/summary', t.admin)).json().total).toBe(before + 1);
  });

  it('gives a signed link valid 60 seconds that streams the file inline', async () => {
    const res = await gw.app.inject({ method: 'POST', url: `/api/documents/${docs.acmeVat!.id}/view-link`, headers: bearer(t.acmeOwner) });
    expect(res.statusCode).toBe(200);
    const { url, expires_at } = res.json();
    const seconds = (Date.parse(expires_at) - Date.now()) / 1000;
    expect(seconds).toBeGreaterThan(LIMITS.signedUrlSeconds - 5);
    expect(seconds).toBeLessThanOrEqual(LIMITS.signedUrlSeconds);
    // no session needed: the link itself is the authority (the gateway lets the prefix through)
    const file = await gw.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toMatch(/^inline; /);
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.rawPayload.equals(SAMPLES.pdf())).toBe(true);
  });

  it('refuses a tampered, re-targeted or expired link (403 / 410 with the error shape)', async () => {
    const id = docs.acmeVat!.id;
    const res = await gw.app.inject({ method: 'POST', url: `/api/documents/${id}/view-link`, headers: bearer(t.acmeOwner) });
    const url = new URL(res.json().url, 'http://x');
    const exp = Number(url.searchParams.get('exp'));
    const sig = url.searchParams.get('sig')!;
    const open = (path: string) => gw.app.inject({ method: 'GET', url: path });

    const longer = await open(`/api/documents/files/${id}?exp=${exp + 3600}&sig=${sig}`);
    expect(longer.statusCode).toBe(403);
    expect(longer.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'This link is not valid.' } });
    const flipped = sig.slice(0, -1) + (sig.endsWith('A') ? 'B' : 'A');
    expect((await open(`/api/documents/files/${id}?exp=${exp}&sig=${flipped}`)).statusCode).toBe(403);
    // Brook's owner takes Acme's signature to Brook's document id, and the other way round
    expect((await open(`/api/documents/files/${docs.brookOwn!.id}?exp=${exp}&sig=${sig}`)).statusCode).toBe(403);
    expect((await open(`/api/documents/files/${id}?exp=${exp}`)).statusCode).toBe(400);

    // A link handed out 61 seconds ago: correctly signed, but its 60 seconds are over.
    const past = Math.floor(Date.now() / 1000) - 1;
    expect(signViewLink(gw.linkSecret, id, exp)).toBe(sig);
    const expired = await open(`/api/documents/files/${id}?exp=${past}&sig=${signViewLink(gw.linkSecret, id, past)}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error.code).toBe('GONE');
  });

  it('downloads the exact bytes with the original name (RFC 5987)', async () => {
    const res = await get(`/api/documents/${docs.brookOwn!.id}/download`, t.brookOwner);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(SAMPLES.pdf())).toBe(true);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="R_sum_ _ 2026.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%C2%A3%202026.pdf`,
    );
    expect(Number(res.headers['content-length'])).toBe(SAMPLES.pdf().length);
  });

  it('records views, downloads and uploads in an access log only administrators read', async () => {
    const id = docs.brookOwn!.id;
    await gw.app.inject({
      method: 'POST',
      url: `/api/documents/${id}/view-link`,
      headers: { ...bearer(t.staff), 'user-agent': 'test-agent/1' },
    });
    const res = await get(`/api/documents/${id}/access-log`, t.admin);
    expect(res.statusCode).toBe(200);
    const entries = res.json().entries as Array<{
      action: string;
      principal_kind: string;
      principal_name: string;
      user_agent: string | null;
    }>;
    expect(entries.map((e) => e.action)).toEqual(['view', 'download', 'upload']);
    expect(entries[0]).toMatchObject({ principal_kind: 'user', user_agent: 'test-agent/1' });
    expect(entries[0]!.principal_name).toBeTruthy();
    for (const who of ['staff', 'manager', 'accountant', 'brookOwner'] as const) {
      expect((await get(`/api/documents/${id}/access-log`, t[who])).statusCode, who).toBe(403);
    }
    expect((await get(`/api/documents/${id}/access-log`)).statusCode).toBe(401);
  });
});

describe('the gateway allowlist', () => {
  it('lets only one segment under /api/documents/files/ through without a token', async () => {
    // deeper paths and look-alike prefixes still need a token
    expect((await get('/api/documents/files/a/b')).statusCode).toBe(401);
    expect((await get('/api/documents/filesX')).statusCode).toBe(401);
    expect((await get('/api/documents/files/')).statusCode).toBe(401);
    // another method on the one open path is refused before it reaches the service: 405, the path takes GET
    // only (issue 32: a known path with another method)
    const post = await gw.app.inject({ method: 'POST', url: '/api/documents/files/abc' });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toMatch(/^GET(, HEAD)?$/);
    // one segment reaches the service, which checks the signature
    expect((await get('/api/documents/files/not-a-uuid?exp=1&sig=x')).statusCode).toBe(400);
  });
});

describe('the client directory consumer', () => {
  it('is idempotent, ignores older events, and keeps search current on a rename', async () => {
    const renamed = await upsertClient(gw, {
      clientId: brook.clientId,
      companyName: 'Brook & Sons Plumbing',
      contactEmail: 'office@brooksons.co.uk',
      userId: null,
    });
    // the same envelope again: processed once
    await gw.kit.runtime.bus.publish('countinghouse.crm', [{ key: brook.clientId, envelope: renamed.envelope }]);
    const { rows } = await gw.kit.runtime.pool.query(`select count(*)::int as n from documents.processed_events where event_id = $1`, [
      renamed.envelope.id,
    ]);
    expect(rows[0].n).toBe(1);
    expect(ids((await get('/api/documents?search=brook %26 sons', t.admin)).json())).toEqual(['Résumé £ 2026.pdf', 'cis.pdf']);
    expect(ids((await get('/api/documents?search=brooksons', t.admin)).json())).toHaveLength(2);
    // ownership moved away from the old owner
    expect((await get('/api/documents', t.brookOwner)).json().total).toBe(0);
    // an older event arriving late does not win
    const stale = await upsertClient(gw, { clientId: brook.clientId, companyName: 'Old Name', contactEmail: 'old@x.co.uk' });
    await gw.kit.runtime.pool.query(`update documents.client_directory set source_at = now() + interval '1 hour' where client_id = $1`, [
      brook.clientId,
    ]);
    const older = await upsertClient(gw, { clientId: brook.clientId, companyName: 'Older Name', contactEmail: 'older@x.co.uk' });
    expect(stale.companyName).toBe('Old Name');
    const dir = await gw.kit.runtime.pool.query(`select company_name from documents.client_directory where client_id = $1`, [
      brook.clientId,
    ]);
    expect(dir.rows[0].company_name).toBe('Old Name');
    expect(older.companyName).toBe('Older Name');
  });

  it('lists the clients a caller may upload for', async () => {
    const staff = (await get('/api/documents/clients', t.staff)).json().clients as Array<{ company_name: string }>;
    expect(staff.map((c) => c.company_name)).toEqual(['Acme Bakery Ltd', 'Old Name']);
    const own = (await get('/api/documents/clients', t.acmeOwner)).json().clients as Array<{ company_name: string }>;
    expect(own.map((c) => c.company_name)).toEqual(['Acme Bakery Ltd']);
    expect((await get('/api/documents/clients?search=acme', t.accountant)).json().clients).toHaveLength(1);
    expect((await get('/api/documents/clients', t.otherAccountant)).json().clients).toHaveLength(0);
  });
});
