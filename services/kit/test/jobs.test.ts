import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import {
  createPool,
  dueSlots,
  jobUuid,
  nextSlot,
  PermanentJobError,
  PgJobQueue,
  RetryLaterJobError,
  previousSlot,
  type JobQueue,
} from '../src/index.js';
import { createTestDatabase, waitFor, type TestDatabase } from '../src/testing/index.js';
import type pg from 'pg';

const logger = pino({ level: 'silent' });
let db: TestDatabase;
let pool: pg.Pool;
const queues: JobQueue[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool(db.url, 10);
});
afterAll(async () => {
  await Promise.allSettled(queues.map((q) => q.close()));
  await pool?.end();
  await db?.drop();
});

async function queue(o: { pollingIntervalMs?: number; scheduleTickMs?: number } = {}): Promise<PgJobQueue> {
  const q = new PgJobQueue({ pool, logger, pollingIntervalMs: o.pollingIntervalMs ?? 200, scheduleTickMs: o.scheduleTickMs });
  await q.start();
  queues.push(q);
  return q;
}

const J = 'identity.purge_expired_sessions' as const;
const finished = (q: JobQueue, id: string) =>
  waitFor(async () => {
    const s = await q.status(J, id);
    return s && (s.state === 'completed' || s.state === 'failed') ? s : null;
  }, `job ${id} finished`);

describe('PostgreSQL job queue (pg-boss)', () => {
  it('retries a failing job with backoff until it succeeds, with progress and result', async () => {
    const q = await queue();
    const attempts: Array<{ attempt: number; at: number }> = [];
    q.process(J, async (payload, ctx) => {
      attempts.push({ attempt: ctx.attempt, at: Date.now() });
      if (ctx.attempt < 3) throw new Error('transient');
      await ctx.reportProgress(50);
      return { purged: payload.olderThanDays };
    });
    const id = await q.enqueue(J, { olderThanDays: 7 }, { backoffMs: 100 });
    const status = await finished(q, id);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    // exponential: at least 100 ms, then 200 ms between attempts
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(100);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(200);
    expect(status).toMatchObject({ id, state: 'completed', attemptsMade: 3, result: { purged: 7 }, progress: 100 });
    await q.close();
  });

  it('gives up after the allowed attempts, and at once on a permanent error; each raises one jobs.failed event', async () => {
    const q = await queue();
    let calls = 0;
    q.process(J, async (p) => {
      calls++;
      if (p.olderThanDays === 0) throw new PermanentJobError('revoked grant');
      throw new Error('always');
    });
    const a = await q.enqueue(J, { olderThanDays: 1 }, { attempts: 2, backoffMs: 5 });
    const b = await q.enqueue(J, { olderThanDays: 0 }, { attempts: 5, backoffMs: 5 });
    expect(await finished(q, a)).toMatchObject({ state: 'failed', attemptsMade: 2, failedReason: 'always' });
    expect(await finished(q, b)).toMatchObject({ state: 'failed', attemptsMade: 1, failedReason: 'revoked grant' });
    expect(calls).toBe(3);
    const events = await pool.query(`select envelope from jobs.outbox where type = 'jobs.failed' order by id`);
    const mine = events.rows.map((r) => r.envelope.data).filter((d) => d.jobId === a || d.jobId === b);
    expect(mine).toHaveLength(2);
    expect(mine.find((d) => d.jobId === a)).toMatchObject({ name: J, error: 'always', attempts: 2, scheduleKey: null });
    const failed = await q.listFailed();
    expect(failed.map((f) => f.id)).toEqual(expect.arrayContaining([a, b]));
    expect(failed.find((f) => f.id === a)).toMatchObject({ label: 'Sign-in housekeeping', error: 'always', attempts: 2 });

    // Retry runs it once more; it fails again (one more event), a second retry of a job not failed is refused.
    expect(await q.retry(J, a)).toBe(true);
    expect(await q.retry(J, a)).toBe(false);
    await waitFor(async () => (await q.status(J, a))?.attemptsMade === 3 && (await q.status(J, a))?.state === 'failed', 'retried');
    expect(calls).toBe(4);
    await q.close();
  });

  it('runs a job again at the time a RetryLaterJobError names, without using up an attempt', async () => {
    const q = await queue({ pollingIntervalMs: 50 });
    const runs: Array<{ attempt: number; at: number }> = [];
    q.process('identity.purge_expired_sessions', async (_p, ctx) => {
      runs.push({ attempt: ctx.attempt, at: Date.now() });
      if (runs.length < 3) throw new RetryLaterJobError(new Date(Date.now() + 200), 'provider said wait');
      return { ok: true };
    });
    const id = await q.enqueue('identity.purge_expired_sessions', { olderThanDays: 1 }, { attempts: 1, backoffMs: 5 });
    await waitFor(
      async () => ((await q.status('identity.purge_expired_sessions', id))?.state === 'delayed' ? true : null),
      'delayed',
      5000,
      5,
    );
    const status = await waitFor(async () => {
      const s = await q.status('identity.purge_expired_sessions', id);
      return s?.state === 'completed' ? s : null;
    }, 'completion after waiting');
    expect(runs.map((r) => r.attempt)).toEqual([1, 1, 1]);
    expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(190);
    expect(status).toMatchObject({ state: 'completed', attemptsMade: 1 });
    expect(new RetryLaterJobError(new Date(1000), 'x').delayMs(5000)).toBe(0);
    await q.close();
  });

  it('refuses a payload that does not match the job schema', async () => {
    const q = await queue();
    await expect(q.enqueue(J, { olderThanDays: -1 })).rejects.toThrow(/Invalid payload/);
    await expect(q.enqueue(J, { nope: 1 } as never)).rejects.toThrow(/Invalid payload/);
  });

  it('a job id given twice is one job; a caller id that is not a UUID is kept as the caller sees it', async () => {
    const q = await queue();
    const id1 = await q.enqueue(J, { olderThanDays: 3 }, { jobId: 'script-42', delayMs: 60_000 });
    const id2 = await q.enqueue(J, { olderThanDays: 3 }, { jobId: 'script-42', delayMs: 60_000 });
    expect(id1).toBe('script-42');
    expect(id2).toBe('script-42');
    const rows = await pool.query(`select count(*)::int as n from pgboss.job where id = $1`, [jobUuid(J, 'script-42')]);
    expect(rows.rows[0].n).toBe(1);
    expect(await q.status(J, 'script-42')).toMatchObject({ id: 'script-42', state: 'delayed', attemptsMade: 0 });
  });

  it('a job enqueued in this process starts within a few milliseconds (the workers are woken, not polled)', async () => {
    const q = await queue({ pollingIntervalMs: 5000 });
    const started: number[] = [];
    q.process(J, async () => void started.push(Date.now()));
    await new Promise((r) => setTimeout(r, 100)); // the first (empty) fetch is done; the next poll is 5 s away
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = Date.now();
      await q.enqueue(J, { olderThanDays: i });
      await waitFor(() => started.length === i + 1, 'started', 3000, 2);
      latencies.push(started[i]! - t0);
    }
    latencies.sort((x, y) => x - y);
    console.info(`pg queue enqueue→start: median ${latencies[5]} ms, max ${latencies[9]} ms`);
    expect(latencies[9]).toBeLessThan(1000);
  });
});

describe('schedule slots (Europe/London)', () => {
  it.each([
    // winter (GMT): 03:30 London is 03:30 UTC
    ['30 3 * * *', '2026-01-15T12:00:00Z', '2026-01-16T03:30:00.000Z'],
    // after the clocks go forward on Sunday 29 Mar 2026, 03:30 BST is 02:30 UTC
    ['30 3 * * *', '2026-03-28T12:00:00Z', '2026-03-29T02:30:00.000Z'],
    // 01:30 does not exist on 29 Mar 2026 (01:00 GMT → 02:00 BST): it runs once, an hour later
    ['30 1 * * *', '2026-03-28T12:00:00Z', '2026-03-29T01:30:00.000Z'],
    // 01:30 happens twice on Sunday 25 Oct 2026: once, the first time (BST)
    ['30 1 * * *', '2026-10-24T12:00:00Z', '2026-10-25T00:30:00.000Z'],
    ['30 1 * * *', '2026-10-25T00:30:00Z', '2026-10-26T01:30:00.000Z'],
  ])('%s after %s is %s', (cron, after, expected) => {
    expect(nextSlot(cron, new Date(after)).toISOString()).toBe(expected);
  });

  it('a slot missed while down runs once; with catch-up every missed one, oldest first', () => {
    const lastSlot = new Date('2026-03-27T03:30:00Z');
    const now = new Date('2026-03-30T12:00:00Z');
    expect(dueSlots({ cron: '30 3 * * *', lastSlot, now, catchUp: false }).map((d) => d.toISOString())).toEqual([
      '2026-03-30T02:30:00.000Z',
    ]);
    expect(dueSlots({ cron: '30 3 * * *', lastSlot, now, catchUp: true }).map((d) => d.toISOString())).toEqual([
      '2026-03-28T03:30:00.000Z',
      '2026-03-29T02:30:00.000Z',
      '2026-03-30T02:30:00.000Z',
    ]);
    expect(dueSlots({ cron: '30 3 * * *', lastSlot: previousSlot('30 3 * * *', now), now, catchUp: true })).toEqual([]);
    // at most a month of missed dailies
    expect(dueSlots({ cron: '30 3 * * *', lastSlot: new Date('2025-01-01T03:30:00Z'), now, catchUp: true })).toHaveLength(31);
  });
});

describe('schedules on the PostgreSQL queue', () => {
  const DAILY = '30 3 * * *';
  const daysAgo = (n: number) => new Date(previousSlot(DAILY, new Date()).getTime() - n * 24 * 3600 * 1000);

  it('a new schedule waits for its next slot; a slot missed while down runs once, with its slot time', async () => {
    const q = await queue();
    const runs: Array<string | undefined> = [];
    q.process(J, async (_p, ctx) => void runs.push(ctx.scheduledFor));
    await q.schedule({ key: 'test.daily-once', cron: DAILY, job: J, payload: { olderThanDays: 30 } });
    await q.tickSchedules();
    await new Promise((r) => setTimeout(r, 300));
    expect(runs).toEqual([]);
    const [view] = (await q.listSchedules()).filter((s) => s.key === 'test.daily-once');
    expect(view).toMatchObject({ job: J, cron: DAILY, time_zone: 'Europe/London', last_run_at: null, catch_up: false });
    expect(new Date(view!.next_run_at).getTime()).toBeGreaterThan(Date.now());

    // The product was down for three days: the last slot run is three days old.
    await pool.query(`update jobs.schedules set last_slot = $2 where key = $1`, ['test.daily-once', daysAgo(3)]);
    await q.tickSchedules();
    await q.tickSchedules();
    await waitFor(() => runs.length === 1, 'one run');
    await new Promise((r) => setTimeout(r, 300));
    expect(runs).toEqual([previousSlot(DAILY, new Date()).toISOString()]);
    const [after] = (await q.listSchedules()).filter((s) => s.key === 'test.daily-once');
    await waitFor(async () => (await q.listSchedules()).find((s) => s.key === 'test.daily-once')?.last_outcome === 'completed', 'outcome');
    expect(after!.last_run_at).not.toBeNull();
    await q.close();
  });

  it('a catch-up schedule runs every missed slot, oldest first', async () => {
    const q = await queue();
    const runs: string[] = [];
    q.process(J, async (_p, ctx) => void runs.push(ctx.scheduledFor!), { concurrency: 1 });
    await q.schedule({ key: 'test.daily-catch-up', cron: DAILY, job: J, payload: { olderThanDays: 30 }, catchUp: true });
    await pool.query(`update jobs.schedules set last_slot = $2 where key = $1`, ['test.daily-catch-up', daysAgo(3)]);
    await q.tickSchedules();
    await waitFor(() => runs.length === 3, 'three runs');
    await new Promise((r) => setTimeout(r, 300));
    expect(runs).toEqual([daysAgo(2), daysAgo(1), daysAgo(0)].map((d) => d.toISOString()));
    await q.close();
  });

  it('two instances checking the same schedule at once enqueue each slot once', async () => {
    const a = await queue();
    const b = await queue();
    await a.schedule({ key: 'test.daily-two', cron: DAILY, job: J, payload: { olderThanDays: 30 }, catchUp: true });
    await b.schedule({ key: 'test.daily-two', cron: DAILY, job: J, payload: { olderThanDays: 30 }, catchUp: true });
    for (let round = 0; round < 5; round++) {
      await pool.query(`update jobs.schedules set last_slot = $2 where key = $1`, ['test.daily-two', daysAgo(2 + round)]);
      await Promise.all([a.tickSchedules(), b.tickSchedules(), a.tickSchedules(), b.tickSchedules()]);
    }
    const { rows } = await pool.query(
      `select data->'schedule'->>'slot' as slot, count(*)::int as n from pgboss.job where data->'schedule'->>'key' = 'test.daily-two' group by 1`,
    );
    // slots from five days ago up to the newest, each once (a slot already enqueued keeps its job id)
    expect(rows.length).toBe(6);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    await a.close();
    await b.close();
  });
});
