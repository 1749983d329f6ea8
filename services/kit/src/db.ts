import { is, sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase, type NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { PgTransaction, type PgDatabase, type PgTransactionConfig } from 'drizzle-orm/pg-core';
import pg from 'pg';

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

export function createPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 });
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

/**
 * Run one service's committed migrations. The migrations table lives in `<service>_meta` so the
 * generated `CREATE SCHEMA "<service>"` still runs on a fresh database; an advisory lock on one
 * dedicated connection keeps two services or replicas from migrating at once (TOOLING-NOTES).
 */
export async function runMigrations(pool: pg.Pool, service: string, migrationsFolder: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`countinghouse-migrations`]);
    try {
      await migrate(drizzle(client), { migrationsFolder, migrationsSchema: `${service}_meta`, migrationsTable: 'migrations' });
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`countinghouse-migrations`]);
    }
  } finally {
    client.release();
  }
}

export async function pingDb(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
