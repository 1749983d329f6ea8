import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, endPool } from '../src/db.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** Ends every other connection to the test database from the server's side, as a restart would. */
async function terminateOthers(): Promise<number> {
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  try {
    const { rowCount } = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [db.name],
    );
    return rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

describe('createPool: a connection the server ends does not crash the process', () => {
  it('an idle client and a checked-out client between queries: no uncaught error; the held client fails its next query; the pool serves again', async () => {
    const pool = createPool(db.url, 3);
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    let held: pg.PoolClient | undefined;
    try {
      // Two connections: one back in the pool (idle), one held by its caller.
      const idle = await pool.connect();
      held = await pool.connect();
      await held.query('select 1');
      idle.release();
      expect(await terminateOthers()).toBe(2);
      await new Promise((r) => setTimeout(r, 300));
      expect(uncaught).toEqual([]);
      await expect(held.query('select 1')).rejects.toThrow();
      held.release(true);
      held = undefined;
      expect((await pool.query<{ n: number }>('select 2 as n')).rows[0]?.n).toBe(2);
    } finally {
      process.off('uncaughtException', onUncaught);
      held?.release(true);
      await pool.end();
    }
  });
});

describe('endPool', () => {
  it('resolves once every connection of the pool is closed', async () => {
    const pool = createPool(db.url, 4);
    const clients: pg.PoolClient[] = [];
    pool.on('connect', (c) => clients.push(c));
    const taken = await Promise.all([pool.connect(), pool.connect(), pool.connect(), pool.connect()]);
    for (const c of taken) c.release();
    await endPool(pool);
    expect(clients).toHaveLength(4);
    // each socket closed, not merely told to close (pool.end() alone resolves before that)
    for (const c of clients)
      expect((c as unknown as { connection: { stream: { destroyed: boolean } } }).connection.stream.destroyed).toBe(true);
  });

  it('a pool that never connected ends at once', async () => {
    const started = Date.now();
    await endPool(createPool(db.url, 2));
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
