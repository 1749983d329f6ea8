import { is, sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase, type NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { PgTransaction, type PgDatabase, type PgTransactionConfig } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { pgErrorCode } from './errors.js';

export type Db = NodePgDatabase<Record<string, unknown>>;
/** The transaction `db.transaction(async (tx) => …)` hands over. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/**
 * A database or a transaction: what a query function takes, so it runs alone or inside the caller's
 * transaction without a cast.
 */
export type DbOrTx = PgDatabase<NodePgQueryResultHKT, Record<string, unknown>>;

interface TxState {
  root: object;
  afterCommit: Map<string, () => void>;
}
/** The open transactions of the databases createDb made, with what to do once they commit. */
const TX_STATE = new WeakMap<object, TxState>();
/** Per database: who is told, after commit, that a service's outbox has new rows (the runtime's relays). */
const OUTBOX_LISTENERS = new WeakMap<object, (schema: string) => void>();

/** Per pool: its clients whose connection is still open (their socket not yet closed). */
const OPEN_CLIENTS = new WeakMap<pg.Pool, Set<pg.PoolClient>>();

export function createPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 });
  const open = new Set<pg.PoolClient>();
  OPEN_CLIENTS.set(pool, open);
  pool.on('connect', (client) => {
    open.add(client);
    client.once('end', () => open.delete(client));
  });
  // An idle client's error (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor a checked-out client's, between two of its queries (a worker holding a client when the server
  // ends the connection: `pg_terminate_backend`, a failover): the next query on it fails and the
  // caller's error handling runs; without a listener the 'error' event was an uncaught exception
  // (two in a CI run, when a test dropped its database under a server still closing).
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/**
 * End a pool and wait until each of its connections is closed (at most `timeoutMs`). pg's pool.end()
 * resolves once its clients are told to end, before their sockets close: a server stopped right after
 * (the all-in-one's embedded PostgreSQL) still found them open and ended them itself ("terminating
 * connection due to administrator command").
 */
export async function endPool(pool: pg.Pool, timeoutMs = 5000): Promise<void> {
  await pool.end();
  const open = [...(OPEN_CLIENTS.get(pool) ?? [])];
  if (open.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(open.map((c) => new Promise((r) => c.once('end', r)))),
    new Promise((r) => {
      timer = setTimeout(r, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
}

/**
 * A Drizzle database on the pool. Its transactions (and their nested savepoints) remember what must
 * happen once they commit: enqueueEvent uses that to kick the outbox relay after the commit, never
 * before it (a relay pass before the commit would not see the row) and never after a rollback.
 */
export function createDb(pool: pg.Pool): Db {
  const db: Db = drizzle(pool);
  const begin = db.transaction.bind(db);
  db.transaction = async <T>(fn: (tx: Tx) => Promise<T>, config?: PgTransactionConfig): Promise<T> => {
    const afterCommit = new Map<string, () => void>();
    const result = await begin(async (tx) => {
      track(tx, { root: db, afterCommit });
      return fn(tx);
    }, config);
    for (const run of afterCommit.values()) {
      try {
        run();
      } catch {
        // an after-commit step is advisory (a kick); the transaction has committed either way
      }
    }
    return result;
  };
  return db;
}

function track(tx: Tx, state: TxState) {
  TX_STATE.set(tx, state);
  const nested = tx.transaction.bind(tx);
  tx.transaction = <T>(fn: (inner: Tx) => Promise<T>): Promise<T> =>
    nested((inner) => {
      track(inner, state);
      return fn(inner);
    });
}

/**
 * Run `run` once `dbOrTx` has committed: after the outermost transaction of a database made by
 * createDb, at once when `dbOrTx` is not a transaction (its statement has already committed). The
 * same `key` runs once per transaction. A transaction from elsewhere is not tracked: nothing runs.
 */
export function afterCommit(dbOrTx: DbOrTx, key: string, run: () => void): void {
  const state = TX_STATE.get(dbOrTx);
  if (state) {
    if (!state.afterCommit.has(key)) state.afterCommit.set(key, run);
    return;
  }
  if (is(dbOrTx, PgTransaction)) return;
  run();
}

/** Tell `listener` (after commit) whenever an event is written to an outbox through `db`. */
export function onOutboxWrite(db: Db, listener: (schema: string) => void): void {
  OUTBOX_LISTENERS.set(db, listener);
}

/** An event was written to `schema`'s outbox through `dbOrTx`: tell the database's listener after commit. */
export function outboxWritten(dbOrTx: DbOrTx, schema: string): void {
  const root = TX_STATE.get(dbOrTx)?.root ?? dbOrTx;
  const listener = OUTBOX_LISTENERS.get(root);
  if (!listener) return;
  afterCommit(dbOrTx, `outbox:${schema}`, () => listener(schema));
}

/** Pools whose migrations run as another (owner) role: the serving pool's URL is a service's limited role. */
const MIGRATE_AS = new WeakMap<pg.Pool, string>();

/**
 * Run `pool`'s migrations through `ownerUrl` (DATABASE_MIGRATION_URL) instead of the pool itself, then
 * grant the pool's own role what it needs on each migrated schema (runMigrations).
 */
export function migrateAs(pool: pg.Pool, ownerUrl: string): void {
  MIGRATE_AS.set(pool, ownerUrl);
}

/** The role a connection string signs in as (the URL's user name; PostgreSQL's default is the OS user). */
export function roleOf(url: string): string {
  return decodeURIComponent(new URL(url).username);
}

/**
 * What a service's own role may do in a schema it owns the data of: read and write rows of its tables
 * and use their sequences; no DDL, nothing in any other schema (docs/decisions.md). Run as the owner
 * after every migration, so tables a new migration adds are covered on the next start.
 */
export async function grantSchemaToRole(client: pg.ClientBase, schema: string, role: string): Promise<void> {
  const s = client.escapeIdentifier(schema);
  const r = client.escapeIdentifier(role);
  await client.query(`GRANT USAGE ON SCHEMA ${s} TO ${r}`);
  await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${r}`);
  await client.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`);
}

/**
 * Run one service's committed migrations. The migrations table lives in `<service>_meta` so the
 * generated `CREATE SCHEMA "<service>"` still runs on a fresh database; an advisory lock on one
 * dedicated connection keeps two services or replicas from migrating at once (TOOLING-NOTES).
 * When the pool was given an owner (migrateAs), the migrations run as that owner on a connection of
 * their own, and the pool's role is then granted the schema's tables (grantSchemaToRole).
 */
export async function runMigrations(pool: pg.Pool, service: string, migrationsFolder: string): Promise<void> {
  const ownerUrl = MIGRATE_AS.get(pool);
  const servingRole = ownerUrl ? roleOf(pool.options.connectionString ?? '') : '';
  const owner = ownerUrl ? new pg.Client({ connectionString: ownerUrl, connectionTimeoutMillis: 10_000 }) : null;
  if (owner) await owner.connect();
  const pooled = owner ? null : await pool.connect();
  const client: pg.Client | pg.PoolClient = owner ?? pooled!;
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`countinghouse-migrations`]);
    try {
      await migrate(drizzle(client), { migrationsFolder, migrationsSchema: `${service}_meta`, migrationsTable: 'migrations' });
      // (under the lock: two processes granting on one schema at once can collide, "tuple concurrently updated")
      if (servingRole && servingRole !== roleOf(ownerUrl!)) await grantSchemaToRole(client, service, servingRole);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`countinghouse-migrations`]);
    }
  } finally {
    if (owner) await owner.end();
    pooled?.release();
  }
}

/**
 * The PostgreSQL role of one service in one database: `<database>_<service>` (roles belong to the whole
 * server, so two products on one server, e.g. the tests', keep theirs apart). At most 63 characters.
 */
export function serviceRoleName(database: string, service: string): string {
  return `${database}_${service}`
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 63);
}

/**
 * Create a login role (or set its password when it exists): no superuser, no databases, no roles, no
 * grants of its own; runMigrations grants it its service's schemas. Run as the owner; idempotent.
 */
export async function ensureLoginRole(client: pg.ClientBase, role: string, password: string): Promise<void> {
  const attrs = `LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT PASSWORD ${client.escapeLiteral(password)}`;
  const r = client.escapeIdentifier(role);
  const exists = await client.query('select 1 from pg_roles where rolname = $1', [role]);
  if (exists.rowCount) return void (await client.query(`ALTER ROLE ${r} ${attrs}`));
  try {
    await client.query(`CREATE ROLE ${r} ${attrs}`);
  } catch (err) {
    // (another process created it meanwhile: set the password we were given)
    if (pgErrorCode(err) !== '42710') throw err;
    await client.query(`ALTER ROLE ${r} ${attrs}`);
  }
}

/** `url` signing in as `role` with `password` instead of its own user. */
export function urlWithRole(url: string, role: string, password: string): string {
  const u = new URL(url);
  u.username = encodeURIComponent(role);
  u.password = encodeURIComponent(password);
  return u.toString();
}

export async function pingDb(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
