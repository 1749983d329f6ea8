import { EDGE_MESSAGES, type ClientDocument } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, SAMPLES, upsertClient } from '../../services/documents/test/helpers.js';
import { bearer, login, makePerson, startTestGateway, type Person, type TestGateway } from './helpers.js';

// Issue #21, item 2, as attacks: NUL and other control characters, page numbers past 2^63, malformed
// multipart and file names with right-to-left overrides. Each is a 400 (or a cleaned name), never a 500.

let gw: TestGateway;
let admin: string;
let client: Person;
let clientId = '';
let doc: { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>> };

const NUL = 'a\u0000b';

beforeAll(async () => {
  gw = await startTestGateway();
  admin = (await login(gw.app)).json().session_token;
  client = await makePerson(gw, 'edge.client@example.com', ['client']);
  clientId = (await upsertClient(gw, { companyName: 'Edge Bakery Ltd', contactEmail: 'owner@edge-bakery.co.uk' })).clientId;
  doc = (await gw.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
});
afterAll(async () => {
  await gw?.close();
});

/** GET operations of the API document taking a given query parameter. */
function getsWithQuery(names: string[]): Array<{ path: string; param: string }> {
  const out: Array<{ path: string; param: string }> = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (path.includes('{')) continue;
    const p = ops.get?.parameters?.find((x) => x.in === 'query' && names.includes(x.name));
    if (p) out.push({ path, param: p.name });
  }
  return out;
}

function expectControlRefusal(res: { statusCode: number; body: string }) {
  expect(res.statusCode, res.body).toBe(400);
  const err = JSON.parse(res.body).error;
  expect(err.code).toBe('VALIDATION_FAILED');
  expect(err.details.map((d: { message: string }) => d.message)).toContain(EDGE_MESSAGES.controlCharacters);
}

describe('NUL and control characters', () => {
  it('refuses NUL in every search of the API with 400', async () => {
    const searches = getsWithQuery(['search', 'q']);
    expect(searches.length).toBeGreaterThanOrEqual(8);
    for (const { path, param } of searches) {
      for (const bad of ['%00', 'x%00y', '%1B%5B31m', '%7F', '%C2%85']) {
        const res = await gw.app.inject({ method: 'GET', url: `${path}?${param}=${bad}`, headers: bearer(admin) });
        expect(res.statusCode, `${path}?${param}=${bad}: ${res.body}`).toBe(400);
      }
      // and an ordinary search still works (or says its provider is not configured: the documented 503)
      const ok = await gw.app.inject({ method: 'GET', url: `${path}?${param}=bakery`, headers: bearer(admin) });
      const notConfigured = ok.statusCode === 503 && JSON.parse(ok.body).error?.code === 'NOT_CONFIGURED';
      if (!notConfigured) expect(ok.statusCode, `${path}: ${ok.body}`).toBeLessThan(500);
      expect(ok.statusCode, `${path}: ${ok.body}`).not.toBe(400);
    }
  });

  it.each([
    ['POST', '/api/crm/clients', { company_name: NUL, contact_email: 'nul@example.com' }],
    ['POST', '/api/crm/clients', { company_name: 'Fine Ltd', contact_email: 'nul2@example.com', contact_name: 'Ann\u001b' }],
    ['POST', '/api/crm/leads', { name: NUL, email: 'lead@example.com' }],
    ['POST', '/api/crm/leads', { name: 'Lead', email: 'lead@example.com', tags: ['ok', NUL] }],
    ['POST', '/api/crm/leads', { name: 'Lead', email: 'lead@example.com', notes: 'fine\nbut\u0000' }],
    ['POST', '/api/crm/tasks', { title: NUL }],
    ['POST', '/api/crm/tasks', { title: 'Line one\nline two' }],
    ['POST', '/api/crm/tasks', { title: 'Chase papers', description: 'x\u000by' }],
  ])('refuses %s %s %j with 400', async (method, url, payload) => {
    expectControlRefusal(await gw.app.inject({ method: method as 'POST', url, headers: bearer(admin), payload }));
  });

  it('refuses NUL in a client’s own profile and in a path parameter', async () => {
    expectControlRefusal(
      await gw.app.inject({ method: 'PATCH', url: '/api/crm/clients/mine', headers: bearer(client.token), payload: { contact_name: NUL } }),
    );
    const res = await gw.app.inject({ method: 'GET', url: '/api/crm/clients/a%00b', headers: bearer(admin) });
    expect(res.statusCode).toBe(400);
  });

  it('keeps tab and new lines in multi-line fields', async () => {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/api/crm/tasks',
      headers: bearer(admin),
      payload: { title: 'Chase papers', description: 'Ring on Monday\r\n\t- bank statements\n\t- receipts' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().description).toBe('Ring on Monday\r\n\t- bank statements\n\t- receipts');
  });
});

describe('page numbers', () => {
  it('answers 400 to page=2^63 (and 0, -1, 1.5, text) on every paged list, and 200 to a sane page', async () => {
    const lists = getsWithQuery(['page']);
    expect(lists.length).toBeGreaterThanOrEqual(11);
    for (const { path } of lists) {
      for (const page of ['9223372036854775808', '100001', '0', '-1', '1.5', 'abc', '1e400']) {
        const res = await gw.app.inject({ method: 'GET', url: `${path}?page=${page}`, headers: bearer(admin) });
        expect(res.statusCode, `${path}?page=${page}: ${res.body}`).toBe(400);
      }
      const res = await gw.app.inject({ method: 'GET', url: `${path}?page=100000`, headers: bearer(admin) });
      expect(res.statusCode, `${path}?page=100000: ${res.body}`).toBe(200);
    }
  });
});

describe('uploads', () => {
  async function rows(): Promise<number> {
    const { rows: r } = await gw.kit.runtime.pool.query('select count(*)::int as n from documents.client_documents');
    return r[0].n;
  }

  it.each([
    ['a boundary that is not in the body', (b: Buffer, ct: string) => ({ body: b, ct: `${ct}-other` })],
    ['no boundary at all', (b: Buffer) => ({ body: b, ct: 'multipart/form-data' })],
    ['a body cut off in the middle of the file', (b: Buffer, ct: string) => ({ body: b.subarray(0, b.length - 120), ct })],
    ['a body cut off in the middle of a part header', (b: Buffer, ct: string) => ({ body: b.subarray(0, 40), ct })],
    ['a part without headers', (_b: Buffer, ct: string) => ({ body: Buffer.from(`--${ct.split('boundary=')[1]}\r\n\r\n\r\n`), ct })],
  ])('answers malformed multipart (%s) with 400 and stores nothing', async (_name, mangle) => {
    const before = await rows();
    const good = multipart({ client_id: clientId, document_type: 'vat' }, [
      { name: 'a.pdf', type: 'application/pdf', data: SAMPLES.pdf() },
    ]);
    const { body, ct } = mangle(good.payload, good.headers['content-type']);
    const res = await gw.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...bearer(admin), 'content-type': ct },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toEqual({ code: 'BAD_REQUEST', message: EDGE_MESSAGES.malformedMultipart });
    expect(await rows()).toBe(before);
  });

  it('refuses control characters in the upload’s fields', async () => {
    for (const fields of [
      { client_id: clientId, document_type: 'vat', description: 'Quarter\u0000' },
      { client_id: `${clientId}\u0000`, document_type: 'vat' },
    ]) {
      const body = multipart(fields, [{ name: 'a.pdf', type: 'application/pdf', data: SAMPLES.pdf() }]);
      const res = await gw.app.inject({
        method: 'POST',
        url: '/api/documents',
        headers: { ...bearer(admin), ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(400);
    }
  });

  it('shows a file named with U+202E cleaned, in the list and in the download header', async () => {
    const evil = 'invoice\u202Efdp.exe\u0007.pdf';
    const body = multipart({ client_id: clientId, document_type: 'vat' }, [{ name: evil, type: 'application/pdf', data: SAMPLES.pdf() }]);
    const up = await gw.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...bearer(admin), ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const id = (up.json().documents as ClientDocument[])[0]!.id;
    expect(up.json().documents[0].filename).toBe('invoicefdp.exe.pdf');

    // an older row stored before the cleaning is served cleaned too
    await gw.kit.runtime.pool.query('update documents.client_documents set filename = $2 where id = $1', [id, evil]);
    const list = await gw.app.inject({ method: 'GET', url: '/api/documents?search=invoice', headers: bearer(admin) });
    expect(list.statusCode, list.body).toBe(200);
    const listed = (list.json().documents as ClientDocument[]).find((d) => d.id === id)!;
    expect(listed.filename).toBe('invoicefdp.exe.pdf');
    const one = await gw.app.inject({ method: 'GET', url: `/api/documents/${id}`, headers: bearer(admin) });
    expect(one.json().filename ?? one.json().document?.filename).toBe('invoicefdp.exe.pdf');

    const dl = await gw.app.inject({ method: 'GET', url: `/api/documents/${id}/download`, headers: bearer(admin) });
    expect(dl.statusCode).toBe(200);
    const cd = String(dl.headers['content-disposition']);
    expect(cd).toContain('filename="invoicefdp.exe.pdf"');
    expect(cd).not.toMatch(/%E2%80%AE|%07/i);
    expect(cd).toContain("filename*=UTF-8''invoicefdp.exe.pdf");
  });
});
