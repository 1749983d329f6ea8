import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { generateSigningKeys, TokenSigner } from '../auth.js';
import { runMigrations } from '../db.js';
import { PgJobQueue } from '../jobs.js';
import { createRuntime, type Runtime } from '../runtime.js';

export const TEMPLATE_DB = 'countinghouse_template';

/**
 * The admin URL of the test PostgreSQL (a real server started by scripts/test.sh via infra/postgres.sh).
 * Missing means the suite was started without its services: that is a failure, never a skip.
 */
export function testServerUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    throw new Error('TEST_DATABASE_URL is not set: run the tests with `npm test`, which starts a real PostgreSQL (infra/postgres.sh).');
  }
  return url;
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/** Build the template database once per run: every service's migrations applied. */
export async function prepareTemplate(services: Array<{ schema: string; migrationsFolder: string }>): Promise<void> {
  const admin = new pg.Client({ connectionString: testServerUrl() });
  await admin.connect();
  try {
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [
      TEMPLATE_DB,
    ]);
    await admin.query(`drop database if exists ${TEMPLATE_DB}`);
    await admin.query(`create database ${TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: withDatabase(testServerUrl(), TEMPLATE_DB), max: 2 });
  try {
    for (const s of services) await runMigrations(pool, s.schema, s.migrationsFolder);
    // The job platform's schemas (jobs, pgboss) and queues, so a cloned database starts its queue at once.
    const jobs = new PgJobQueue({ pool, logger: pino({ level: 'silent' }) });
    await jobs.start();
    await jobs.close();
  } finally {
    await pool.end();
  }
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh database for one test file, cloned from the migrated template in milliseconds. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `ch_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testServerUrl() });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: withDatabase(testServerUrl(), name),
    async drop() {
      const c = new pg.Client({ connectionString: testServerUrl() });
      await c.connect();
      try {
        await c.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [name]);
        await c.query(`drop database if exists ${name}`);
        // the services' own roles made for this database (serviceRoleName: `<database>_<service>`)
        const roles = await c.query<{ rolname: string }>(`select rolname from pg_roles where starts_with(rolname, $1)`, [`${name}_`]);
        for (const r of roles.rows) await c.query(`drop role if exists ${c.escapeIdentifier(r.rolname)}`);
      } finally {
        await c.end();
      }
    },
  };
}

export interface TestKit {
  db: TestDatabase;
  runtime: Runtime;
  signer: TokenSigner;
  keys: { privateKeyPem: string; publicKeyPem: string };
  close(): Promise<void>;
}

/** A fresh database plus an in-process runtime (real PostgreSQL, in-process bus and jobs) and signing keys. */
export async function createTestKit(o: { logLevel?: string; relayIntervalMs?: number } = {}): Promise<TestKit> {
  const db = await createTestDatabase();
  const keys = generateSigningKeys();
  const runtime = await createRuntime({
    serviceName: 'test',
    databaseUrl: db.url,
    poolSize: 5,
    publicKeyPem: keys.publicKeyPem,
    logger: pino({ level: o.logLevel ?? process.env.TEST_LOG_LEVEL ?? 'silent' }),
    relayIntervalMs: o.relayIntervalMs ?? 50,
  });
  const signer = await TokenSigner.fromPem(keys.privateKeyPem);
  return {
    db,
    runtime,
    signer,
    keys,
    async close() {
      await runtime.close();
      await db.drop();
    },
  };
}

/** Poll until `check` returns a truthy value or the time runs out (then throw with the label). */
export async function waitFor<T>(
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  label: string,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await check();
      if (v) return v as T;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${label}${last ? `: ${String(last)}` : ''}`);
}
