import { ensureInitialAdmin } from '@countinghouse/identity';
import { makeEnvelope } from '@countinghouse/kit';
import { createTestKit } from '@countinghouse/kit/testing';
import { TOPICS, type EventData } from '@countinghouse/proto';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { composeAllInOne } from '../../../gateway/src/compose.js';
import { ADMIN, type TestGateway } from '../../../gateway/test/helpers.js';
import type { DocumentStorage } from '../src/adapters/storage/storage.js';

export interface DocumentsGateway extends TestGateway {
  storageDir: string;
  linkSecret: string;
}

/** The all-in-one app on a fresh real database, with a known storage folder and link secret. */
export async function startDocumentsGateway(o: { storage?: DocumentStorage } = {}): Promise<DocumentsGateway> {
  const kit = await createTestKit();
  const storageDir = mkdtempSync(join(tmpdir(), 'ch-docs-test-'));
  const linkSecret = randomBytes(32).toString('base64url');
  const app = await composeAllInOne({
    runtime: kit.runtime,
    signer: kit.signer,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    frontendDir: null,
    signInMax: 1000,
    publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'Test Practice', phone: '0100', email: 'a@b.c' } }),
    services: { documents: { storageDir, storage: o.storage, linkSecret } },
  });
  await ensureInitialAdmin(kit.runtime.db, ADMIN);
  return {
    kit,
    app,
    storageDir,
    linkSecret,
    async close() {
      await app.close();
      await kit.close();
      rmSync(storageDir, { recursive: true, force: true });
    },
  };
}

export type ClientEntry = EventData<'crm.client_upserted'>;

/** Publish crm.client_upserted through the runtime's bus, as crm's outbox relay would. */
export async function upsertClient(gw: TestGateway, c: Partial<ClientEntry> & { companyName: string; contactEmail: string }) {
  const data: ClientEntry = {
    clientId: c.clientId ?? randomUUID(),
    userId: c.userId ?? null,
    companyName: c.companyName,
    contactName: c.contactName ?? null,
    contactEmail: c.contactEmail,
    packageName: c.packageName ?? 'Growth',
    monthlyFee: c.monthlyFee ?? 100,
    subscriptionStatus: c.subscriptionStatus ?? 'active',
    assignedAccountantId: c.assignedAccountantId ?? null,
  };
  const envelope = makeEnvelope('crm.client_upserted', data, { kind: 'system', id: null });
  await gw.kit.runtime.bus.publish(TOPICS.crm, [{ key: data.clientId, envelope }]);
  return { ...data, envelope };
}

/** Every file under the storage folder except the temporary area. */
export function storedFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p.slice(root.length + 1));
    }
  };
  walk(root);
  return out;
}

export function tempFiles(root: string): string[] {
  try {
    return readdirSync(join(root, '.tmp'));
  } catch {
    return [];
  }
}

// ---- small valid files of every accepted type ----

export const SAMPLES = {
  pdf: () =>
    Buffer.from(
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
        '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    ),
  // 1x1 PNG
  png: () =>
    Buffer.from(
      '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
        '1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
      'hex',
    ),
  jpeg: () =>
    Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(64, 1), Buffer.from('ffd9', 'hex')]),
  gif: () => Buffer.from('474946383961010001000000002c00000000010001000002024401003b', 'hex'),
  xlsx: () => Buffer.concat([Buffer.from('504b0304140000000800', 'hex'), Buffer.alloc(100, 7)]),
  xls: () => Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504, 0)]),
  csv: () => Buffer.from('date,description,amount\n2026-04-05,Stationery £12,12.00\n', 'utf8'),
  exe: () => Buffer.concat([Buffer.from('4d5a90000300000004000000ffff0000', 'hex'), Buffer.alloc(200, 0)]),
};

export interface UploadFile {
  name: string;
  type: string;
  data: Buffer;
}

/** A multipart body built by hand: fields first, then files. */
export function multipart(fields: Record<string, string | undefined>, files: UploadFile[]) {
  const boundary = `----chtest${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`),
    );
    chunks.push(f.data);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
