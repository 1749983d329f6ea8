import { ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { ClientDocument } from '@countinghouse/proto';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login } from '../../../gateway/test/helpers.js';
import { storageChoice, DocumentsConfigSchema } from '../src/config.js';
import { S3DocumentStorage, type S3StorageOptions } from '../src/adapters/storage/s3-storage.js';
import { storageKey } from '../src/adapters/storage/storage.js';
import { parseConfig } from '@countinghouse/kit';
import { multipart, SAMPLES, startDocumentsGateway, upsertClient, type DocumentsGateway } from './helpers.js';

// The documents storage on the S3 API against a real MinIO (npm test starts it: infra/minio.sh, TEST_S3_*).

function s3Options(): S3StorageOptions {
  const need = (k: string) => {
    const v = process.env[`TEST_${k}`];
    if (!v) throw new Error(`TEST_${k} is not set: run the tests with \`npm test\`, which starts MinIO (infra/minio.sh).`);
    return v;
  };
  return {
    endpoint: need('S3_ENDPOINT'),
    bucket: need('S3_BUCKET'),
    region: need('S3_REGION'),
    accessKeyId: need('S3_ACCESS_KEY_ID'),
    secretAccessKey: need('S3_SECRET_ACCESS_KEY'),
    forcePathStyle: need('S3_FORCE_PATH_STYLE') === 'true',
  };
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
let storage: S3DocumentStorage;
let other: S3DocumentStorage;

async function objectsUnder(prefix: string): Promise<string[]> {
  const r = await storage.client.send(new ListObjectsV2Command({ Bucket: s3Options().bucket, Prefix: prefix }));
  return (r.Contents ?? []).map((o) => o.Key!);
}

async function pendingUploadsUnder(prefix: string): Promise<number> {
  const r = await storage.client.send(new ListMultipartUploadsCommand({ Bucket: s3Options().bucket, Prefix: prefix }));
  return (r.Uploads ?? []).length;
}

async function readAll(s: S3DocumentStorage, key: string): Promise<Buffer> {
  const { stream } = await s.read(key);
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  storage = new S3DocumentStorage(s3Options());
  await storage.init();
  // a second replica: its own client, the same bucket
  other = new S3DocumentStorage(s3Options());
});
afterAll(() => {
  storage?.close();
  other?.close();
});

describe('S3 document storage (MinIO)', () => {
  it('streams a 12 MB file as a multipart upload; nothing is visible before commit; another replica reads it byte for byte', async () => {
    const prefix = randomUUID();
    const key = storageKey(prefix, 'vat', 'pdf');
    const data = randomBytes(12 * 1024 * 1024);
    const w = await storage.createWriter(key);
    for (let i = 0; i < data.length; i += 64 * 1024) await w.write(data.subarray(i, i + 64 * 1024));
    expect(await objectsUnder(`${prefix}/`)).toEqual([]);
    await w.commit();
    expect(await objectsUnder(`${prefix}/`)).toEqual([key]);
    expect(await other.exists(key)).toBe(true);
    const head = await other.read(key);
    head.stream.destroy();
    expect(head.size).toBe(data.length);
    expect(sha(await readAll(other, key))).toBe(sha(data));
    expect(await pendingUploadsUnder(`${prefix}/`)).toBe(0);
    await other.remove(key);
    expect(await storage.exists(key)).toBe(false);
    await storage.remove(key); // twice is fine
  }, 60_000);

  it('an abort after parts went up leaves no object and no pending multipart upload', async () => {
    const prefix = randomUUID();
    const key = storageKey(prefix, 'general', 'pdf');
    const w = await storage.createWriter(key);
    const part = randomBytes(1024 * 1024);
    for (let i = 0; i < 11; i++) await w.write(part); // past two 5 MiB parts
    await w.abort();
    await w.abort(); // twice is fine
    expect(await objectsUnder(`${prefix}/`)).toEqual([]);
    expect(await pendingUploadsUnder(`${prefix}/`)).toBe(0);
  });

  it('a small file aborted before commit never reaches the store', async () => {
    const prefix = randomUUID();
    const key = storageKey(prefix, 'general', 'csv');
    const w = await storage.createWriter(key);
    await w.write(Buffer.from('a,b\n1,2\n'));
    await w.abort();
    expect(await objectsUnder(`${prefix}/`)).toEqual([]);
  });

  it('reading a missing object fails as ENOENT (the route answers 410), and a bad key is refused', async () => {
    await expect(storage.read(storageKey(randomUUID(), 'vat', 'pdf'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(storage.createWriter('../escape.pdf')).rejects.toThrow(/bad storage key/);
  });

  it('an unreachable store fails at start with a sentence naming it', async () => {
    const bad = new S3DocumentStorage({ ...s3Options(), bucket: `missing-${randomUUID().slice(0, 8)}` });
    await expect(bad.init()).rejects.toThrow(/bucket "missing-.*" .* is not reachable/);
    bad.close();
  });
});

describe('documents configuration: the S3_* group is all or nothing', () => {
  const base = { DOCUMENTS_LINK_SECRET: 'x'.repeat(32) };
  const full = {
    S3_ENDPOINT: 'http://127.0.0.1:9000',
    S3_BUCKET: 'b',
    S3_REGION: 'eu-west-2',
    S3_ACCESS_KEY_ID: 'k',
    S3_SECRET_ACCESS_KEY: 's',
    S3_FORCE_PATH_STYLE: 'true',
  };
  it('takes all six as the object store', () => {
    const c = storageChoice(parseConfig(DocumentsConfigSchema, { ...base, ...full }));
    expect(c).toEqual({
      s3: { endpoint: full.S3_ENDPOINT, bucket: 'b', region: 'eu-west-2', accessKeyId: 'k', secretAccessKey: 's', forcePathStyle: true },
    });
  });
  it('refuses part of the group, naming what is missing', () => {
    expect(() => storageChoice(parseConfig(DocumentsConfigSchema, { ...base, S3_BUCKET: 'b', S3_REGION: 'eu-west-2' }))).toThrow(
      /S3_ENDPOINT: required with the other S3_\* settings[\s\S]*S3_SECRET_ACCESS_KEY/,
    );
  });
  it('without the group needs DOCUMENTS_STORAGE_DIR', () => {
    expect(storageChoice(parseConfig(DocumentsConfigSchema, { ...base, DOCUMENTS_STORAGE_DIR: '/srv/docs' }))).toEqual({
      dir: '/srv/docs',
    });
    expect(() => storageChoice(parseConfig(DocumentsConfigSchema, base))).toThrow(/DOCUMENTS_STORAGE_DIR or the S3_\* settings/);
  });
});

describe('the documents service on the object store', () => {
  let gw: DocumentsGateway;
  let admin: string;
  let clientId: string;

  beforeAll(async () => {
    gw = await startDocumentsGateway({ storage: new S3DocumentStorage(s3Options()) });
    admin = (await login(gw.app)).json().session_token;
    clientId = (await upsertClient(gw, { companyName: 'Bucket & Co Ltd', contactEmail: 'owner@bucket.co.uk' })).clientId;
  });
  afterAll(async () => {
    await gw?.close();
  });

  const upload = (files: Parameters<typeof multipart>[1]) => {
    const body = multipart({ client_id: clientId, document_type: 'vat' }, files);
    return gw.app.inject({ method: 'POST', url: '/api/documents', headers: { ...body.headers, ...bearer(admin) }, payload: body.payload });
  };

  it('stores an upload as an object; another replica serves the download byte for byte', async () => {
    const res = await upload([{ name: 'Return Q1.pdf', type: 'application/pdf', data: SAMPLES.pdf() }]);
    expect(res.statusCode, res.body).toBe(201);
    const doc = (res.json() as { documents: ClientDocument[] }).documents[0]!;
    const keys = await objectsUnder(`${clientId}/`);
    expect(keys).toHaveLength(1);
    expect(sha(await readAll(other, keys[0]!))).toBe(sha(SAMPLES.pdf()));
    const dl = await gw.app.inject({ method: 'GET', url: `/api/documents/${doc.id}/download`, headers: bearer(admin) });
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.equals(SAMPLES.pdf())).toBe(true);
  });

  it.each([
    ['a disguised executable', 'invoice.pdf', 'application/pdf', SAMPLES.exe(), 415],
    ['an 11 MB file', 'big.pdf', 'application/pdf', Buffer.concat([SAMPLES.pdf(), Buffer.alloc(11 * 1024 * 1024, 0x20)]), 413],
    ['a wrong type', 'notes.txt', 'text/plain', Buffer.from('hello'), 415],
  ])('refuses %s leaving no object and no pending upload', async (_label, name, type, data, status) => {
    const before = await objectsUnder(`${clientId}/`);
    const res = await upload([{ name, type, data }]);
    expect(res.statusCode).toBe(status);
    expect(await objectsUnder(`${clientId}/`)).toEqual(before);
    expect(await pendingUploadsUnder(`${clientId}/`)).toBe(0);
  });

  it('a batch with one bad file leaves no object of the good ones and no row (all or nothing, issue 32)', async () => {
    const before = await objectsUnder(`${clientId}/`);
    const rows = async () =>
      (await gw.kit.runtime.pool.query(`select count(*)::int as n from documents.client_documents where client_id = $1`, [clientId]))
        .rows[0].n;
    const rowsBefore = await rows();
    const res = await upload([
      { name: 'one.pdf', type: 'application/pdf', data: SAMPLES.pdf() },
      { name: 'two.pdf', type: 'application/pdf', data: SAMPLES.pdf() },
      { name: 'bad.pdf', type: 'application/pdf', data: SAMPLES.exe() },
    ]);
    expect(res.statusCode).toBe(415);
    expect(await objectsUnder(`${clientId}/`)).toEqual(before);
    expect(await pendingUploadsUnder(`${clientId}/`)).toBe(0);
    expect(await rows()).toBe(rowsBefore);
  });
});
