import type { Role } from '@countinghouse/proto';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { createApp, type App } from '../app.js';
import { generateSigningKeys, TokenSigner, type PrincipalKind } from '../auth.js';
import { dataFolderEnv, parseServiceConfig, type ServiceDescriptor, type ServiceHost } from '../descriptor.js';
import type { PracticeDetails } from '../live-settings.js';
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

/** One connection to the test server's `postgres` database, for creating and dropping databases. */
async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: testServerUrl() });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

/** Build the template database once per run: every service's migrations applied. */
export async function prepareTemplate(services: Array<{ schema: string; migrationsFolder: string }>): Promise<void> {
  await withAdmin(async (admin) => {
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [
      TEMPLATE_DB,
    ]);
    await dropSpares(admin);
    await admin.query(`drop database if exists ${TEMPLATE_DB}`);
    await admin.query(`create database ${TEMPLATE_DB}`);
  });
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

// Spare databases (issue 27, docs/perf/tests.md "Session 11"): cloning the template takes about 1 s
// (PostgreSQL copies its 1,400 relations one by one), and a test file used to wait for it. Each
// createTestDatabase now takes a spare clone made earlier, while the previous file ran, when there is one
// (renamed: instant, and only one taker can win), and starts the next spare in the background. Spares
// are made from the run's template and dropped when the next run builds its template.
const SPARE_PREFIX = 'ch_spare_';
/** How many spares may wait at once (one per worker is enough; two for two workers). */
const SPARES_MAX = 2;
let makingSpare: Promise<void> | null = null;

/** Start making one spare clone unless this process is making one or enough wait already. */
function makeSpare(): void {
  if (makingSpare) return;
  makingSpare = withAdmin(async (c) => {
    const { rows } = await c.query<{ n: number }>(`select count(*)::int as n from pg_database where starts_with(datname, $1)`, [
      SPARE_PREFIX,
    ]);
    if ((rows[0]?.n ?? 0) >= SPARES_MAX) return;
    await c.query(`create database ${SPARE_PREFIX}${randomBytes(6).toString('hex')} template ${TEMPLATE_DB}`);
  })
    // (a spare that could not be made costs nothing: the next file clones the template itself)
    .catch(() => undefined)
    .finally(() => {
      makingSpare = null;
    });
}

/** Rename a waiting spare to `name`; false when none is left (another file may take the same one first). */
async function takeSpare(c: pg.Client, name: string): Promise<boolean> {
  const { rows } = await c.query<{ datname: string }>(
    `select datname from pg_database where starts_with(datname, $1) and datallowconn order by datname`,
    [SPARE_PREFIX],
  );
  for (const r of rows) {
    try {
      await c.query(`alter database ${c.escapeIdentifier(r.datname)} rename to ${name}`);
      return true;
    } catch {
      // taken by another worker a moment ago
    }
  }
  return false;
}

/** Drop every spare (the template they were cloned from is about to be rebuilt). */
async function dropSpares(c: pg.Client): Promise<void> {
  const { rows } = await c.query<{ datname: string }>(`select datname from pg_database where starts_with(datname, $1)`, [SPARE_PREFIX]);
  for (const r of rows) await c.query(`drop database if exists ${c.escapeIdentifier(r.datname)} with (force)`);
}

/** A fresh database for one test file: a spare clone of the migrated template, else a clone made now. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `ch_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(async (admin) => {
    if (!(await takeSpare(admin, name))) await admin.query(`create database ${name} template ${TEMPLATE_DB}`);
  });
  makeSpare();
  return {
    name,
    url: withDatabase(testServerUrl(), name),
    async drop() {
      await withAdmin(async (c) => {
        await c.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [name]);
        await c.query(`drop database if exists ${name}`);
        // the services' own roles made for this database (serviceRoleName: `<database>_<service>`)
        const roles = await c.query<{ rolname: string }>(`select rolname from pg_roles where starts_with(rolname, $1)`, [`${name}_`]);
        for (const r of roles.rows) await c.query(`drop role if exists ${c.escapeIdentifier(r.rolname)}`);
      });
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
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${label}${last ? `: ${String(last)}` : ''}`);
}

/** One service on its own, booted from its descriptor (startServiceForTest). */
export interface ServiceTestApp {
  kit: TestKit;
  app: App;
  /** A signed-in person's bearer token for these roles (no identity service: the kit's signer signs it). */
  tokenFor(roles: Role[], o?: { id?: string; name?: string; kind?: PrincipalKind }): Promise<string>;
  close(): Promise<void>;
}

/**
 * Boot one service from its descriptor, as its own process would (its settings parsed and checked, its
 * options built by the descriptor), on a fresh database and the kit's in-process bus: a test of one
 * service starts that service only, not every plugin of the all-in-one (issue 27, item 5). `env` is its
 * environment; `options` go over what the descriptor builds (a clock, a mock provider).
 */
export async function startServiceForTest(
  service: ServiceDescriptor,
  o: { env?: Record<string, string>; options?: Record<string, unknown>; practice?: PracticeDetails } = {},
): Promise<ServiceTestApp> {
  const env = o.env ?? {};
  const config = parseServiceConfig(service, {
    ...dataFolderEnv([service], env, null, (folder) => mkdtempSync(join(tmpdir(), `ch-${folder}-`))),
    ...env,
  });
  // (settings refused before anything is made: nothing to clean up)
  const kit = await createTestKit();
  const practice = o.practice ?? { name: 'Test Practice', phone: '0100', email: 'a@b.c' };
  const host: ServiceHost = { mode: 'all-in-one', runtime: kit.runtime, practice: () => practice, production: false, signer: kit.signer };
  const app = createApp({ logger: kit.runtime.logger });
  await app.register(
    async (scope) => {
      const options = await service.options(config, host, scope);
      await scope.register(service.plugin, { ...options, ...o.options });
    },
    { prefix: `/api/${service.name}` },
  );
  await app.ready();
  return {
    kit,
    app,
    async tokenFor(roles, p = {}) {
      const { token } = await kit.signer.sign({
        sub: p.id ?? randomUUID(),
        sid: randomUUID(),
        knd: p.kind ?? 'user',
        roles,
        name: p.name ?? roles.join(' '),
      });
      return token;
    },
    async close() {
      await app.close();
      await kit.close();
    },
  };
}
