import multipart from '@fastify/multipart';
import { authContext, runMigrations, type App, type Runtime } from '@countinghouse/kit';
import { LIMITS, MAX_FILES_PER_UPLOAD } from '@countinghouse/proto';
import { fileURLToPath } from 'node:url';
import { subscribeAmlEvidence } from './consumers/aml-evidence.js';
import { subscribeRetention } from './consumers/retention.js';
import { subscribeSubjectAccess } from './consumers/subject-access.js';
import { subscribeClientDirectory } from './consumers/client-directory.js';
import { subscribeRequestFiles } from './consumers/request-files.js';
import { subscribeEngagementLetters } from './consumers/engagement-letters.js';
import { SCHEMA } from './db/schema.js';
import { documentRoutes } from './routes/documents.js';
import { fileRoutes } from './routes/files.js';
import { reportRoutes } from './routes/reports.js';
import { LocalDiskStorage, type DocumentStorage } from './adapters/storage/storage.js';

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface DocumentsPluginOptions {
  runtime: Runtime;
  /** Where uploaded files live (local disk); all-in-one uses DATA_DIR/documents. */
  storageDir: string;
  /** Secret of the signed view links; every replica must share it. */
  linkSecret: string | Buffer;
  /** Another storage (an object store) instead of the local disk. */
  storage?: DocumentStorage;
  /** The clock of the signed links, in seconds (tests). */
  nowSeconds?: () => number;
}

/** The documents service as one Fastify plugin: upload, list/search, signed viewing, download, access log. */
export async function documentsPlugin(app: App, opts: DocumentsPluginOptions) {
  const { runtime } = opts;
  if (!opts.linkSecret || opts.linkSecret.length < 32) throw new Error('documents: linkSecret must be at least 32 characters');
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  const relay = runtime.relay(SCHEMA);
  let storage = opts.storage;
  if (!storage) {
    const disk = new LocalDiskStorage(opts.storageDir);
    await disk.init();
    storage = disk;
  }
  await subscribeClientDirectory(runtime);
  await subscribeAmlEvidence(runtime, storage);
  await subscribeRetention(runtime, storage);
  await subscribeSubjectAccess(runtime, storage);
  // Signed engagement letters arrive as events and are filed as the client's documents.
  await subscribeEngagementLetters(runtime, storage);
  // Files sent against client requests and on the secure message thread, the same way.
  await subscribeRequestFiles(runtime, storage);
  await app.register(authContext, { verifier: runtime.verifier });
  await app.register(multipart, {
    // The parser stops a file at the limit and flags it; the route turns that into 'File too large'.
    throwFileSizeLimit: false,
    limits: { fileSize: LIMITS.maxUploadBytes, files: MAX_FILES_PER_UPLOAD, fields: 10, fieldSize: 10_000, parts: 40, headerPairs: 100 },
  });
  const nowSeconds = opts.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  const deps = { db: runtime.db, relay, storage, linkSecret: opts.linkSecret, nowSeconds };
  documentRoutes(app, deps);
  fileRoutes(app, deps);
  reportRoutes(app, deps);
}

export { SCHEMA } from './db/schema.js';
export { subscribeClientDirectory, CLIENT_DIRECTORY_CONSUMER } from './consumers/client-directory.js';
export { signViewLink } from './domain/signed-links.js';
export { LocalDiskStorage, type DocumentStorage } from './adapters/storage/storage.js';
export { S3DocumentStorage, type S3StorageOptions } from './adapters/storage/s3-storage.js';
