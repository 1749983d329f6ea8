import { BullMqJobQueue } from '@countinghouse/kit';
import { waitFor } from '@countinghouse/kit/testing';
import { pino } from 'pino';
import { afterAll, expect, it } from 'vitest';
import { requireEnv } from '../processes.js';

const queues: BullMqJobQueue[] = [];
afterAll(async () => {
  await Promise.all(queues.map((q) => q.close()));
});

it('BullMQ on real Redis: enqueue, process, retry on failure, then complete', async () => {
  const q = new BullMqJobQueue(requireEnv('TEST_REDIS_URL'), pino({ level: 'silent' }), `test-${Date.now()}`);
  queues.push(q);
  const attempts: number[] = [];
  q.process('identity.purge_expired_sessions', async (payload, ctx) => {
    attempts.push(ctx.attempt);
    if (ctx.attempt === 1) throw new Error('transient failure');
    await ctx.reportProgress(60);
    return { purged: payload.olderThanDays * 2 };
  });
  const id = await q.enqueue('identity.purge_expired_sessions', { olderThanDays: 21 }, { backoffMs: 50, attempts: 3 });
  const s = await waitFor(
    async () => {
      const st = await q.status('identity.purge_expired_sessions', id);
      return st?.state === 'completed' ? st : null;
    },
    'BullMQ job completed',
    30_000,
    100,
  );
  expect(attempts).toEqual([1, 2]);
  expect(s).toMatchObject({ state: 'completed', attemptsMade: 2, result: { purged: 42 } });
  expect(await q.isReady()).toBe(true);
});

it('BullMQ: a permanent error fails the job without retrying; a bad payload is refused at enqueue', async () => {
  const q = new BullMqJobQueue(requireEnv('TEST_REDIS_URL'), pino({ level: 'silent' }), `test-perm-${Date.now()}`);
  queues.push(q);
  const { PermanentJobError } = await import('@countinghouse/kit');
  let calls = 0;
  q.process('identity.purge_expired_sessions', async () => {
    calls++;
    throw new PermanentJobError('cannot ever work');
  });
  const id = await q.enqueue('identity.purge_expired_sessions', { olderThanDays: 1 }, { attempts: 5, backoffMs: 20 });
  const s = await waitFor(
    async () => {
      const st = await q.status('identity.purge_expired_sessions', id);
      return st?.state === 'failed' ? st : null;
    },
    'BullMQ job failed',
    30_000,
    100,
  );
  expect(calls).toBe(1);
  expect(s.failedReason).toContain('cannot ever work');
  await expect(q.enqueue('identity.purge_expired_sessions', { olderThanDays: 'soon' } as never)).rejects.toThrow(/Invalid payload/);
});

it('BullMQ: RetryLaterJobError runs the job again at the time it names, using no attempt', async () => {
  const q = new BullMqJobQueue(requireEnv('TEST_REDIS_URL'), pino({ level: 'silent' }), `test-later-${Date.now()}`);
  queues.push(q);
  const { RetryLaterJobError } = await import('@countinghouse/kit');
  const runs: Array<{ attempt: number; at: number }> = [];
  let retryAt = 0;
  q.process('identity.purge_expired_sessions', async (_p, ctx) => {
    runs.push({ attempt: ctx.attempt, at: Date.now() });
    if (runs.length < 3) {
      retryAt = Date.now() + 700;
      throw new RetryLaterJobError(new Date(retryAt), 'provider said wait');
    }
    return { ok: true };
  });
  const id = await q.enqueue('identity.purge_expired_sessions', { olderThanDays: 1 }, { attempts: 1, backoffMs: 20 });
  const delayed = await waitFor(
    async () => ((await q.status('identity.purge_expired_sessions', id))?.state === 'delayed' ? true : null),
    'BullMQ job delayed',
    30_000,
    20,
  );
  expect(delayed).toBe(true);
  const s = await waitFor(
    async () => {
      const st = await q.status('identity.purge_expired_sessions', id);
      return st?.state === 'completed' ? st : null;
    },
    'BullMQ job completed after waiting',
    30_000,
    100,
  );
  // One attempt allowed, three runs: waiting is not failing.
  expect(runs.map((r) => r.attempt)).toEqual([1, 1, 1]);
  expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(650);
  expect(runs[2]!.at - runs[1]!.at).toBeGreaterThanOrEqual(650);
  expect(s).toMatchObject({ state: 'completed', attemptsMade: 1 });
});
