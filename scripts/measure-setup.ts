// What the measuring scripts (measure-processes.ts, measure-idle-cpu.ts) share: the servers they need
// from the environment, and a throwaway database and data folder for one start of the product.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Infra } from './distributed.js';

/** The servers already running that the product starts on (see the scripts' top comments). */
export function requireInfraEnv(env: NodeJS.ProcessEnv): void {
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'KAFKA_BROKERS', 'S3_ENDPOINT'])
    if (!env[k]) throw new Error(`${k} is required (servers already running: see the comment at the top)`);
}

/** A database `<prefix>_<random>` and a data folder for one start; `cleanup` drops both. */
export async function throwawayInfra(env: NodeJS.ProcessEnv, prefix: string) {
  const db = `${prefix}_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${db}`);
  const url = new URL(env.DATABASE_URL!);
  url.pathname = `/${db}`;
  const infra: Infra = {
    databaseUrl: url.toString(),
    redisUrl: env.REDIS_URL!,
    kafkaBrokers: env.KAFKA_BROKERS!,
    s3: Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('S3_'))) as Record<string, string>,
  };
  const dataDir = mkdtempSync(join(os.tmpdir(), `${prefix.replace(/_/g, '-')}-`));
  return {
    infra,
    dataDir,
    async cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
      await admin.query(`drop database ${db} with (force)`).catch(() => {});
      await admin.end();
    },
  };
}
