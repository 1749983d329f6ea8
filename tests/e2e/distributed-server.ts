import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { createTestDatabase } from '@countinghouse/kit/testing';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startDistributed, type Distributed, type Infra } from '../../scripts/distributed.js';
import { builtFrontendDir } from '../frontend-build.js';
import { freePort, requireEnv } from '../processes.js';
import type { E2EServer } from './server.js';
import { E2E_ADMIN } from './server.js';

/** The servers npm test started (scripts/test.sh), for a distributed product of the tests' own. */
export function testInfra(bucket: string): Infra {
  return {
    databaseUrl: requireEnv('TEST_DATABASE_URL'),
    redisUrl: requireEnv('TEST_REDIS_URL'),
    kafkaBrokers: requireEnv('TEST_KAFKA_BROKERS'),
    s3: {
      S3_ENDPOINT: requireEnv('TEST_S3_ENDPOINT'),
      S3_BUCKET: bucket,
      S3_REGION: requireEnv('TEST_S3_REGION'),
      S3_ACCESS_KEY_ID: requireEnv('TEST_S3_ACCESS_KEY_ID'),
      S3_SECRET_ACCESS_KEY: requireEnv('TEST_S3_SECRET_ACCESS_KEY'),
      S3_FORCE_PATH_STYLE: requireEnv('TEST_S3_FORCE_PATH_STYLE'),
    },
  };
}

export function s3ClientOf(s3: Record<string, string>): S3Client {
  return new S3Client({
    endpoint: s3.S3_ENDPOINT,
    region: s3.S3_REGION,
    forcePathStyle: s3.S3_FORCE_PATH_STYLE === 'true',
    credentials: { accessKeyId: s3.S3_ACCESS_KEY_ID!, secretAccessKey: s3.S3_SECRET_ACCESS_KEY! },
  });
}

async function listBucket(s3: S3Client, bucket: string) {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const r = await s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    keys.push(...(r.Contents ?? []).map((c) => c.Key!));
    token = r.IsTruncated ? r.NextContinuationToken : undefined;
  } while (token);
  const pending = await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  return { keys, pending: pending.Uploads ?? [] };
}

async function storedFilesOf(s3: S3Client, bucket: string): Promise<string[]> {
  const { keys, pending } = await listBucket(s3, bucket);
  return [...keys, ...pending.map((u) => `.uploads/${u.Key}`)].sort();
}

async function readStoredOf(s3: S3Client, bucket: string, key: string): Promise<Buffer> {
  const r = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await r.Body!.transformToByteArray());
}

export interface TestProduct {
  product: Distributed;
  baseUrl: string;
  infra: Infra;
  s3: S3Client;
  bucket: string;
  databaseUrl: string;
  /** Every object in this product's bucket, and pending multipart uploads as `.uploads/<key>`. */
  storedFiles(): Promise<string[]>;
  readStored(key: string): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * The distributed product (scripts/distributed.ts) on the test servers, isolated from every other test:
 * a database cloned from the template, a bucket, a Kafka namespace and a BullMQ prefix of its own.
 */
export async function startTestProduct(
  extraEnv: Record<string, string> = {},
  o: { infra?: Partial<Infra>; log?: (line: string) => void } = {},
): Promise<TestProduct> {
  const frontendDir = await builtFrontendDir();
  const run = randomUUID().slice(0, 8);
  const bucket = `e2e-${run}`;
  const base = testInfra(bucket);
  const db = await createTestDatabase();
  const infra: Infra = { ...base, ...o.infra, databaseUrl: db.url, s3: base.s3 };
  const s3 = s3ClientOf(infra.s3);
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const dataDir = mkdtempSync(join(tmpdir(), 'ch-e2e-dist-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let product: Distributed;
  try {
    product = await startDistributed({
      infra,
      log: o.log,
      kafkaNamespace: `e2e-${run}.`,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'test',
        PORT: String(port),
        PUBLIC_HOST: '127.0.0.1',
        PUBLIC_URL: baseUrl,
        FRONTEND_DIR: frontendDir,
        ADMIN_USERNAME: E2E_ADMIN.username,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        SEED_DEMO: 'false',
        DEMO_MODE: 'true',
        LOG_LEVEL: 'warn',
        SIGN_IN_RATE_LIMIT: '1000',
        REPLICAS: '2',
        DB_POOL_SIZE: '4',
        BULLMQ_PREFIX: `e2e-${run}`,
        ...extraEnv,
        // (a test's DATA_DIR is for the all-in-one storage folder; here the launcher's state goes to its own)
        DATA_DIR: dataDir,
      },
    });
  } catch (err) {
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }

  const listAll = () => listBucket(s3, bucket);

  return {
    product,
    baseUrl,
    infra,
    s3,
    bucket,
    databaseUrl: db.url,
    storedFiles: () => storedFilesOf(s3, bucket),
    readStored: (key) => readStoredOf(s3, bucket, key),
    async close() {
      await product.stop();
      const { keys, pending } = await listAll().catch(() => ({ keys: [] as string[], pending: [] }));
      for (const u of pending)
        await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: u.Key!, UploadId: u.UploadId! })).catch(() => {});
      if (keys.length > 0)
        await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.map((Key) => ({ Key })) } })).catch(() => {});
      await s3.send(new DeleteBucketCommand({ Bucket: bucket })).catch(() => {});
      s3.destroy();
      await db.drop();
      // E2E_KEEP_LOGS=1 keeps each process's log (DATA_DIR/logs) for a failure's post-mortem
      if (process.env.E2E_KEEP_LOGS === '1') console.log(`distributed product's logs kept in ${join(dataDir, 'logs')}`);
      else rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** startE2EServer in the browser-distributed project. */
export async function startDistributedE2EServer(extraEnv: Record<string, string> = {}): Promise<E2EServer> {
  const t = await startTestProduct(extraEnv);
  const pool = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
  return {
    baseUrl: t.baseUrl,
    pool,
    admin: E2E_ADMIN,
    mode: 'distributed',
    storedFiles: () => t.storedFiles(),
    readStored: (key) => t.readStored(key),
    async close() {
      await pool.end();
      await t.close();
    },
  };
}

/** What a browser-distributed file needs of the one product: where it is, its database and its bucket. */
export interface SharedProduct {
  baseUrl: string;
  databaseUrl: string;
  bucket: string;
  s3: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * Set in the browser-distributed project only (tests/e2e/distributed-global-setup.ts): where to ask
     * for the product, which starts when first asked for.
     */
    e2eDistributed?: { controlUrl: string };
    /** Set in the distributed project in a run with browser-distributed: where to start it early (warm-product.ts). */
    e2eProductControl?: string;
  }
}

/**
 * startE2EServer in the browser-distributed project: the product its global setup starts once for every
 * file (a dozen processes take about a minute to start on two cores; once per file would cost the CI run
 * several minutes), asked for from it (started by the first to ask, or by the group before). The files
 * share its database and bucket, so each one works on clients of its own; close() lets go of this file's
 * connections only.
 */
export async function sharedDistributedE2EServer(control: { controlUrl: string }): Promise<E2EServer> {
  const res = await fetch(`${control.controlUrl}/product`);
  if (!res.ok) throw new Error(await res.text());
  const shared = (await res.json()) as SharedProduct;
  const pool = new pg.Pool({ connectionString: shared.databaseUrl, max: 2 });
  const s3 = s3ClientOf(shared.s3);
  return {
    baseUrl: shared.baseUrl,
    pool,
    admin: E2E_ADMIN,
    mode: 'distributed',
    storedFiles: () => storedFilesOf(s3, shared.bucket),
    readStored: (key) => readStoredOf(s3, shared.bucket, key),
    async close() {
      await pool.end();
      s3.destroy();
    },
  };
}
