import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { InProcessJobQueue, PermanentJobError, RetryLaterJobError } from '../src/index.js';
import { waitFor } from '../src/testing/index.js';

const logger = pino({ level: 'silent' });

describe('in-process job runner', () => {
  it('retries a failing job with backoff until it succeeds', async () => {
    const q = new InProcessJobQueue(logger);
    const attempts: number[] = [];
    q.process('identity.purge_expired_sessions', async (payload, ctx) => {
      attempts.push(ctx.attempt);
      if (ctx.attempt < 3) throw new Error('transient');
      await ctx.reportProgress(50);
      return { purged: payload.olderThanDays };
    });
    const id = await q.enqueue('identity.purge_expired_sessions', { olderThanDays: 7 }, { backoffMs: 10 });
    const status = await waitFor(async () => {
      const s = await q.status('identity.purge_expired_sessions', id);
      return s?.state === 'completed' ? s : null;
    }, 'job completion');
    expect(attempts).toEqual([1, 2, 3]);
    expect(status).toMatchObject({ state: 'completed', attemptsMade: 3, result: { purged: 7 }, progress: 100 });
    await q.close();
  });

  it('gives up after the allowed attempts, and at once on a permanent error', async () => {
    const q = new InProcessJobQueue(logger);
    let calls = 0;
    q.process('identity.purge_expired_sessions', async (p) => {
      calls++;
      if (p.olderThanDays === 0) throw new PermanentJobError('revoked grant');
      throw new Error('always');
    });
    const a = await q.enqueue('identity.purge_expired_sessions', { olderThanDays: 1 }, { attempts: 2, backoffMs: 5 });
    const b = await q.enqueue('identity.purge_expired_sessions', { olderThanDays: 0 }, { attempts: 5, backoffMs: 5 });
    const sa = await waitFor(
      async () =>
        (await q.status('identity.purge_expired_sessions', a))?.state === 'failed' ? q.status('identity.purge_expired_sessions', a) : null,
      'job a failed',
    );
    const sb = await waitFor(
      async () =>
        (await q.status('identity.purge_expired_sessions', b))?.state === 'failed' ? q.status('identity.purge_expired_sessions', b) : null,
      'job b failed',
    );
    expect(sa).toMatchObject({ attemptsMade: 2, failedReason: 'always' });
    expect(sb).toMatchObject({ attemptsMade: 1, failedReason: 'revoked grant' });
    expect(calls).toBe(3);
    await q.close();
  });

  it('runs a job again at the time a RetryLaterJobError names, without using up an attempt', async () => {
    const q = new InProcessJobQueue(logger);
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
    const q = new InProcessJobQueue(logger);
    await expect(q.enqueue('identity.purge_expired_sessions', { olderThanDays: -1 })).rejects.toThrow(/Invalid payload/);
    await expect(q.enqueue('identity.purge_expired_sessions', { nope: 1 } as never)).rejects.toThrow(/Invalid payload/);
    await q.close();
  });
});
