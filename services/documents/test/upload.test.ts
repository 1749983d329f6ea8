import { TOPICS, type ClientDocument, type EventEnvelope } from '@countinghouse/proto';
import { waitFor } from '@countinghouse/kit/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login } from '../../../gateway/test/helpers.js';
import { multipart, SAMPLES, startDocumentsGateway, storedFiles, tempFiles, upsertClient, type DocumentsGateway } from './helpers.js';

let gw: DocumentsGateway;
let admin: string;
let client: { clientId: string };
const published: EventEnvelope[] = [];

beforeAll(async () => {
  gw = await startDocumentsGateway();
  admin = (await login(gw.app)).json().session_token;
  client = await upsertClient(gw, { companyName: 'Acme Bakery Ltd', contactEmail: 'owner@acme-bakery.co.uk' });
  await gw.kit.runtime.bus.subscribe({
    group: 'test.documents-events',
    topics: [TOPICS.documents],
    handler: async (e) => void published.push(e),
  });
});
afterAll(async () => {
  await gw?.close();
});

async function rowCount(): Promise<number> {
  const { rows } = await gw.kit.runtime.pool.query('select count(*)::int as n from documents.client_documents');
  return rows[0].n;
}

function upload(fields: Record<string, string | undefined>, files: Parameters<typeof multipart>[1], token = admin) {
  const body = multipart(fields, files);
  return gw.app.inject({ method: 'POST', url: '/api/documents', headers: { ...body.headers, ...bearer(token) }, payload: body.payload });
}

describe('upload', () => {
  it('stores every accepted type, one row each, under {clientId}/{documentType}/{timestamp}-{random}.{ext}', async () => {
    const files = [
      { name: 'Accounts 2026.pdf', type: 'application/pdf', data: SAMPLES.pdf(), ext: 'pdf' },
      { name: 'receipt.JPG', type: 'image/jpeg', data: SAMPLES.jpeg(), ext: 'jpg' },
      { name: 'logo.png', type: 'image/png', data: SAMPLES.png(), ext: 'png' },
      { name: 'banner.gif', type: 'image/gif', data: SAMPLES.gif(), ext: 'gif' },
      { name: 'ledger.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', data: SAMPLES.xlsx(), ext: 'xlsx' },
      { name: 'old-ledger.xls', type: 'application/vnd.ms-excel', data: SAMPLES.xls(), ext: 'xls' },
      { name: 'bank.csv', type: 'text/csv', data: SAMPLES.csv(), ext: 'csv' },
    ];
    const res = await upload({ client_id: client.clientId, document_type: 'vat', description: 'Quarter to March' }, files);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json() as { success: boolean; message: string; documents: ClientDocument[] };
    expect(body.message).toBe('7 file(s) uploaded successfully');
    expect(body.documents.map((d) => d.filename)).toEqual(files.map((f) => f.name));
    for (const d of body.documents) {
      expect(d).toMatchObject({ client_id: client.clientId, document_type: 'vat', status: 'active', description: 'Quarter to March' });
      expect(d.company_name).toBe('Acme Bakery Ltd');
    }
    const { rows } = await gw.kit.runtime.pool.query(
      'select filename, file_path, file_size, uploaded_by from documents.client_documents order by created_at, id',
    );
    expect(rows).toHaveLength(7);
    for (const f of files) {
      const row = rows.find((r) => r.filename === f.name)!;
      expect(row.file_path).toMatch(new RegExp(`^${client.clientId}/vat/\\d{13}-[0-9a-f]{16}\\.${f.ext}$`));
      expect(row.file_size).toBe(f.data.length);
      expect(readFileSync(join(gw.storageDir, row.file_path)).equals(f.data)).toBe(true);
    }
    expect(tempFiles(gw.storageDir)).toEqual([]);
  });

  it('publishes documents.document_uploaded for each stored file (through the outbox)', async () => {
    await waitFor(() => published.length >= 7, 'seven events');
    const e = published.find((p) => p.type === 'documents.document_uploaded' && (p.data as { filename: string }).filename === 'bank.csv')!;
    expect(e.data).toMatchObject({ clientId: client.clientId, documentType: 'vat', fileSize: SAMPLES.csv().length });
    expect(e.actor.kind).toBe('admin');
  });

  it('refuses a disguised executable (MZ renamed .pdf) with the spec message, leaving no row and no file', async () => {
    const before = { rows: await rowCount(), files: storedFiles(gw.storageDir).length };
    const res = await upload({ client_id: client.clientId, document_type: 'general' }, [
      { name: 'invoice.pdf', type: 'application/pdf', data: SAMPLES.exe() },
    ]);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ error: { code: 'UNSUPPORTED_FILE_TYPE', message: 'invoice.pdf is not a supported file type' } });
    expect(await rowCount()).toBe(before.rows);
    expect(storedFiles(gw.storageDir).length).toBe(before.files);
    expect(tempFiles(gw.storageDir)).toEqual([]);
  });

  it.each([
    ['a PNG named .pdf', 'scan.pdf', 'application/pdf', SAMPLES.png()],
    ['a PDF declared as an image', 'scan.pdf', 'image/png', SAMPLES.pdf()],
    ['a text file', 'notes.txt', 'text/plain', Buffer.from('hello')],
    ['an executable', 'setup.exe', 'application/octet-stream', SAMPLES.exe()],
    ['a CSV with NUL bytes', 'data.csv', 'text/csv', Buffer.from('a,b\n\u0000\u0001,2\n')],
    ['an empty PDF', 'empty.pdf', 'application/pdf', Buffer.alloc(0)],
    ['a name without extension', 'README', 'application/pdf', SAMPLES.pdf()],
  ])('refuses %s', async (_label, name, type, data) => {
    const before = await rowCount();
    const res = await upload({ client_id: client.clientId, document_type: 'general' }, [{ name, type, data }]);
    expect(res.statusCode).toBe(415);
    expect(res.json().error.message).toBe(`${name} is not a supported file type`);
    expect(await rowCount()).toBe(before);
  });

  it("refuses an 11 MB file ('File too large') leaving nothing; exactly 10485760 bytes is accepted", async () => {
    const before = { rows: await rowCount(), files: storedFiles(gw.storageDir).length };
    const big = Buffer.concat([SAMPLES.pdf(), Buffer.alloc(11 * 1024 * 1024 - SAMPLES.pdf().length, 0x20)]);
    const res = await upload({ client_id: client.clientId, document_type: 'general' }, [
      { name: 'big.pdf', type: 'application/pdf', data: big },
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: { code: 'FILE_TOO_LARGE', message: 'big.pdf is larger than 10MB' } });
    expect(await rowCount()).toBe(before.rows);
    expect(storedFiles(gw.storageDir).length).toBe(before.files);
    expect(tempFiles(gw.storageDir)).toEqual([]);

    const exact = Buffer.concat([SAMPLES.pdf(), Buffer.alloc(10_485_760 - SAMPLES.pdf().length, 0x20)]);
    const ok = await upload({ client_id: client.clientId, document_type: 'general' }, [
      { name: 'exact.pdf', type: 'application/pdf', data: exact },
    ]);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().documents[0].file_size).toBe(10_485_760);
  });

  it("answers 'Missing information' without a document type, with an unknown one, and without files", async () => {
    const before = await rowCount();
    const file = { name: 'a.pdf', type: 'application/pdf', data: SAMPLES.pdf() };
    for (const fields of [{ client_id: client.clientId }, { client_id: client.clientId, document_type: 'shoes' }]) {
      const res = await upload(fields, [file]);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Please select files and document type' });
    }
    const none = await upload({ client_id: client.clientId, document_type: 'vat' }, []);
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe('Please select files and document type');
    expect(await rowCount()).toBe(before);
  });

  it('a batch with one bad file stores none: no row, no file, no event (all or nothing, issue 32)', async () => {
    const before = { rows: await rowCount(), files: storedFiles(gw.storageDir).length };
    const res = await upload({ client_id: client.clientId, document_type: 'payroll' }, [
      { name: 'first.pdf', type: 'application/pdf', data: SAMPLES.pdf() },
      { name: 'second.pdf', type: 'application/pdf', data: SAMPLES.exe() },
      { name: 'third.png', type: 'image/png', data: SAMPLES.png() },
    ]);
    expect(res.statusCode).toBe(415);
    expect(res.json().error.message).toBe('second.pdf is not a supported file type');
    const { rows } = await gw.kit.runtime.pool.query(`select filename from documents.client_documents where document_type = 'payroll'`);
    expect(rows).toEqual([]);
    expect(await rowCount()).toBe(before.rows);
    expect(storedFiles(gw.storageDir).length).toBe(before.files);
    expect(tempFiles(gw.storageDir)).toEqual([]);
    const outbox = await gw.kit.runtime.pool.query(
      `select count(*)::int as n from documents.outbox where envelope->'data'->>'filename' = 'first.pdf'`,
    );
    expect(outbox.rows[0].n).toBe(0);
  });

  it('21 files (one over the limit) answer 413 and store none of the first 20', async () => {
    const before = { rows: await rowCount(), files: storedFiles(gw.storageDir).length };
    const files = Array.from({ length: 21 }, (_, i) => ({ name: `page-${i + 1}.pdf`, type: 'application/pdf', data: SAMPLES.pdf() }));
    const res = await upload({ client_id: client.clientId, document_type: 'bookkeeping' }, files);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().error.code).toBeTruthy();
    expect(await rowCount()).toBe(before.rows);
    expect(storedFiles(gw.storageDir).length).toBe(before.files);
    expect(tempFiles(gw.storageDir)).toEqual([]);
  });

  it('a good batch of three is stored whole, in order', async () => {
    const res = await upload({ client_id: client.clientId, document_type: 'payroll' }, [
      { name: 'a.pdf', type: 'application/pdf', data: SAMPLES.pdf() },
      { name: 'b.png', type: 'image/png', data: SAMPLES.png() },
      { name: 'c.pdf', type: 'application/pdf', data: SAMPLES.pdf() },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json().documents as ClientDocument[]).map((d) => d.filename)).toEqual(['a.pdf', 'b.png', 'c.pdf']);
  });

  it('never takes a path from the file name', async () => {
    const res = await upload({ client_id: client.clientId, document_type: 'general' }, [
      { name: '../../etc/passwd.pdf', type: 'application/pdf', data: SAMPLES.pdf() },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const doc = res.json().documents[0] as ClientDocument;
    expect(doc.filename).toBe('passwd.pdf');
    const { rows } = await gw.kit.runtime.pool.query('select file_path from documents.client_documents where id = $1', [doc.id]);
    expect(rows[0].file_path).toMatch(new RegExp(`^${client.clientId}/general/\\d{13}-[0-9a-f]{16}\\.pdf$`));
  });

  it('refuses an unknown client and anonymous callers', async () => {
    const res = await upload({ client_id: 'no-such-client', document_type: 'vat' }, [
      { name: 'a.pdf', type: 'application/pdf', data: SAMPLES.pdf() },
    ]);
    expect(res.statusCode).toBe(404);
    const body = multipart({ client_id: client.clientId, document_type: 'vat' }, [
      { name: 'a.pdf', type: 'application/pdf', data: SAMPLES.pdf() },
    ]);
    const anon = await gw.app.inject({ method: 'POST', url: '/api/documents', headers: body.headers, payload: body.payload });
    expect(anon.statusCode).toBe(401);
    expect(anon.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('answers a non-multipart upload with a 4xx error shape, never a 500', async () => {
    const res = await gw.app.inject({ method: 'POST', url: '/api/documents', headers: bearer(admin), payload: { a: 1 } });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().error.code).toBeTruthy();
  });

  it('stores a multi-megabyte file byte for byte (many streamed chunks)', async () => {
    const data = Buffer.concat([SAMPLES.pdf(), Buffer.alloc(5 * 1024 * 1024, 0x41)]);
    const res = await upload({ client_id: client.clientId, document_type: 'bookkeeping' }, [
      { name: 'five.pdf', type: 'application/pdf', data },
    ]);
    expect(res.statusCode).toBe(201);
    const { rows } = await gw.kit.runtime.pool.query('select file_path from documents.client_documents where id = $1', [
      res.json().documents[0].id,
    ]);
    expect(readFileSync(join(gw.storageDir, rows[0].file_path)).equals(data)).toBe(true);
  });
});
