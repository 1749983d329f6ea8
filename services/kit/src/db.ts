import { sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

export type Db = NodePgDatabase<Record<string, unknown>>;

export function createPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 });
  // An idle client's error (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return pool;
}

export function createDb(pool: pg.Pool): Db {
  return drizzle(pool);
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
