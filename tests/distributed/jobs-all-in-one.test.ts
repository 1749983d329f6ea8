import { jobUuid, PgJobQueue, previousSlot } from '@countinghouse/kit';
import { createTestDatabase, waitFor, type TestDatabase } from '@countinghouse/kit/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startNode, waitReady, type Proc } from '../processes.js';

/**
 * The all-in-one server as real child processes on one real PostgreSQL: its jobs and schedules
 * survive SIGKILL, a slot missed while it was down runs once, and two instances never run a slot twice.
 */
let db: TestDatabase;
let pool: pg.Pool;
const dirs: string[] = [];
const procs: Proc[] = [];
const DAILY = '30 3 * * *';
const DAY = 24 * 3600 * 1000;
const J = 'identity.purge_expired_sessions' as const;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  // Dropping the database at the end ends its connections: an idle one's error is expected, not a crash.
  pool.on('error', () => {});
});
afterAll(async () => {
  await Promise.allSettled(procs.map((p) => p.stop()));
  await pool?.end();
  await db?.drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function startAllInOne(extra: Record<string, string> = {}): Promise<Proc & { port: number }> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'ch-jobs-'));
  dirs.push(dataDir);
  const p = startNode('gateway/src/all-in-one.ts', {
    DATABASE_URL: db.url,
    PORT: String(port),
    DATA_DIR: dataDir,
    FRONTEND_DIR: dataDir,
    ADMIN_PASSWORD: 'jobs-admin-password-1',
    SEED_DEMO: 'false',
    JOBS_SCHEDULE_CHECK_MS: '500',
    ...extra,
  });
  procs.push(p);
  // tsx compiles the whole product at start: on two busy cores that can take a minute.
  await waitReady(`http://127.0.0.1:${port}/health/ready`, p, 180_000);
  return Object.assign(p, { port });
}

function kill(p: Proc): Promise<void> {
  const exited = new Promise<void>((r) => p.child.once('exit', () => r()));
  p.child.kill('SIGKILL');
  return exited;
}

const jobRow = async (id: string) =>
  (await pool.query(`select state, retry_count, started_on from pgboss.job where name = $1 and id = $2`, [J, id])).rows[0];

describe('all-in-one jobs across restarts (child processes, SIGKILL)', { timeout: 420_000 }, () => {
  it('a job enqueued before the process was killed runs exactly once after it starts again', async () => {
    const first = await startAllInOne();
    // Another client of the same database enqueues a job due in 3 s; the server is killed before then.
    const client = new PgJobQueue({ pool, logger: pino({ level: 'silent' }) });
    await client.start();
    const id = await client.enqueue(J, { olderThanDays: 30 }, { delayMs: 3000 });
    await client.close();
    await kill(first);
    expect((await jobRow(id)).state).toBe('created');
    await new Promise((r) => setTimeout(r, 3500)); // due while nobody is running

    const second = await startAllInOne();
    await waitFor(async () => (await jobRow(id))?.state === 'completed', 'job completed after restart', 20_000);
    // started once: a retry would have raised retry_count
    expect(await jobRow(id)).toMatchObject({ state: 'completed', retry_count: 0 });
    const n = await pool.query(
      `select count(*)::int as n from pgboss.job where name = $1 and data->>'payload' = '{"olderThanDays": 30}' and data->'schedule' is null`,
      [J],
    );
    expect(n.rows[0].n).toBe(1);
    await second.stop();
  });

  it('a daily slot due while the process was down runs once after it starts, not once per missed day', async () => {
    // The process is down; the last run was three days ago (three slots missed).
    const newest = previousSlot(DAILY, new Date());
    await pool.query(`update jobs.schedules set last_slot = $1 where key = 'identity.housekeeping'`, [
      new Date(newest.getTime() - 3 * DAY),
    ]);
    const p = await startAllInOne();
    const runs = await waitFor(
      async () => {
        const { rows } = await pool.query(
          `select data->'schedule'->>'slot' as slot, state from pgboss.job where data->'schedule'->>'key' = 'identity.housekeeping'`,
        );
        return rows.length > 0 && rows.every((r) => r.state === 'completed') ? rows : null;
      },
      'the missed run completed',
      20_000,
    );
    await new Promise((r) => setTimeout(r, 1500)); // a few more schedule checks
    const after = await pool.query(`select count(*)::int as n from pgboss.job where data->'schedule'->>'key' = 'identity.housekeeping'`);
    expect(after.rows[0].n).toBe(1);
    expect(runs[0].slot).toBe(newest.toISOString());
    expect(runs[0].state).toBe('completed');
    expect((await pool.query(`select last_outcome from jobs.schedules where key = 'identity.housekeeping'`)).rows[0].last_outcome).toBe(
      'completed',
    );
    await p.stop();
  });

  it('two all-in-one processes on one database run each slot once', async () => {
    const a = await startAllInOne();
    const b = await startAllInOne();
    await pool.query(`delete from pgboss.job where data->'schedule'->>'key' = 'identity.housekeeping'`);
    // Both running, both checking every 0.5 s; five slots were missed, and the schedule asks for one run.
    for (let round = 0; round < 3; round++) {
      const newest = previousSlot(DAILY, new Date());
      await pool.query(`update jobs.schedules set last_slot = $1 where key = 'identity.housekeeping'`, [
        new Date(newest.getTime() - (5 + round) * DAY),
      ]);
      await waitFor(async () => {
        const { rows } = await pool.query(`select last_slot from jobs.schedules where key = 'identity.housekeeping'`);
        return rows[0].last_slot.getTime() === newest.getTime();
      }, 'the slot enqueued');
    }
    await new Promise((r) => setTimeout(r, 1500));
    const { rows } = await pool.query(
      `select id, state, retry_count from pgboss.job where data->'schedule'->>'key' = 'identity.housekeeping'`,
    );
    // one job for the newest slot (its id is derived from the slot: a second enqueue is the same job)
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe(jobUuid(J, `schedule:identity.housekeeping:${previousSlot(DAILY, new Date()).toISOString()}`));
    await waitFor(
      async () => (await pool.query(`select state from pgboss.job where id = $1`, [rows[0].id])).rows[0].state === 'completed',
      'ran',
    );
    expect((await pool.query(`select retry_count from pgboss.job where id = $1`, [rows[0].id])).rows[0].retry_count).toBe(0);
    await Promise.all([a.stop(), b.stop()]);
  });
});
