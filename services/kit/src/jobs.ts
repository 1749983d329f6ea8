import {
  FAILED_JOBS_SHOWN,
  JOBS,
  QUEUES,
  type FailedJobView,
  type JobName,
  type JobPayload,
  type ScheduleView,
} from '@countinghouse/proto';
import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type pg from 'pg';
import type { Logger } from 'pino';
import { errorMessage } from './errors.js';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  DEFAULT_SCHEDULE_BACKOFF_MS,
  isJobName,
  PermanentJobError,
  RetryLaterJobError,
  validate,
  type EnqueueOptions,
  type JobContext,
  type JobProcessor,
  type JobQueue,
  type JobState,
  type JobStatus,
  type ScheduleSpec,
} from './jobs/core.js';
import { assertCron, dueSlots, SCHEDULE_TIME_ZONE } from './jobs/slots.js';
import { errorText, failedView, readSchedules, recordScheduleRun, toScheduleView, upsertSchedule, writeJobFailed } from './jobs/store.js';

export * from './jobs/core.js';
export { PgJobQueue, PGBOSS_SCHEMA, type PgJobQueueOptions } from './jobs/pg-queue.js';
export { assertCron, dueSlots, nextSlot, previousSlot, MAX_CATCH_UP_SLOTS, SCHEDULE_TIME_ZONE } from './jobs/slots.js';
export { jobUuid, migrateJobsSchema, jobsMigrationsFolder } from './jobs/store.js';
export { JOBS_SCHEMA } from './jobs/tables.js';

const KNOWN_STATES: readonly JobState[] = ['waiting', 'active', 'completed', 'failed', 'delayed'];

/** A BullMQ job state that is one of ours as it is. */
function isKnownState(state: string): state is JobState {
  return KNOWN_STATES.some((s) => s === state);
}

/** A scheduled run's key and slot, from the id BullMQ gives a scheduler's job (repeat:<key>:<ms>) or ours. */
function scheduledRun(job: Job): { key: string; slot: string } | null {
  const id = job.id ?? '';
  const m = /^repeat:(.+):(\d+)$/.exec(id);
  if (m) return { key: job.repeatJobKey ?? m[1]!, slot: new Date(Number(m[2])).toISOString() };
  const c = /^schedule:(.+):(\d{4}-\d{2}-\d{2}T[\d:.]+Z)$/.exec(id);
  return c ? { key: c[1]!, slot: c[2]! } : null;
}

/**
 * BullMQ on Redis: one Queue and one Worker per queue name, dispatching to processors by job name.
 * Given the service's PostgreSQL pool it also records schedules and their runs (for the status page)
 * and writes jobs.failed to the jobs schema's outbox when a job fails for good.
 */
export class BullMqJobQueue implements JobQueue {
  readonly kind = 'bullmq' as const;
  private queues = new Map<string, Queue>();
  private workers = new Map<string, Worker>();
  /** Per job name: check a payload against the job's schema (throws when it fails), then the run of its processor. */
  private processors = new Map<string, { prepare: (payload: unknown) => (ctx: JobContext) => Promise<unknown> }>();
  private connection: Redis;
  private workerConnections: Redis[] = [];
  private scheduleSpecs = new Map<string, ScheduleSpec<JobName>>();
  private readonly pool: pg.Pool | null;

  constructor(
    private readonly redisUrl: string,
    private readonly logger: Logger,
    private readonly prefix = 'countinghouse',
    o: { pool?: pg.Pool } = {},
  ) {
    this.pool = o.pool ?? null;
    this.connection = new Redis(redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
    this.connection.on('error', () => {});
  }

  private queue(queueName: string): Queue {
    let q = this.queues.get(queueName);
    if (!q) {
      q = new Queue(queueName, { connection: this.connection, prefix: this.prefix });
      this.queues.set(queueName, q);
    }
    return q;
  }

  private jobOptions(attempts: number, backoffMs: number) {
    return {
      attempts,
      backoff: { type: 'exponential', delay: backoffMs },
      removeOnComplete: { age: 24 * 3600, count: 1000 },
      // Failed jobs stay 30 days: listed on the status page, retryable.
      removeOnFail: { age: 30 * 24 * 3600 },
    };
  }

  async enqueue<N extends JobName>(name: N, payload: JobPayload<N>, opts: EnqueueOptions = {}): Promise<string> {
    validate(name, payload);
    const job = await this.queue(JOBS[name].queue).add(name, payload, {
      jobId: opts.jobId,
      delay: opts.delayMs,
      ...this.jobOptions(opts.attempts ?? DEFAULT_ATTEMPTS, opts.backoffMs ?? DEFAULT_BACKOFF_MS),
    });
    return job.id!;
  }

  process<N extends JobName>(name: N, processor: JobProcessor<N>, opts: { concurrency?: number } = {}): void {
    this.processors.set(name, {
      prepare: (raw) => {
        const payload = validate(name, raw);
        return (ctx) => processor(payload, ctx);
      },
    });
    const queueName = JOBS[name].queue;
    if (this.workers.has(queueName)) return;
    const workerConnection = new Redis(this.redisUrl, { maxRetriesPerRequest: null });
    workerConnection.on('error', () => {});
    this.workerConnections.push(workerConnection);
    const worker = new Worker(
      queueName,
      async (job: Job, token?: string) => {
        const proc = this.processors.get(job.name);
        if (!proc) throw new UnrecoverableError(`No processor for ${job.name}`);
        let runProcessor: (ctx: JobContext) => Promise<unknown>;
        try {
          runProcessor = proc.prepare(job.data);
        } catch (err) {
          throw new UnrecoverableError(errorMessage(err));
        }
        const run = scheduledRun(job);
        if (run) await this.startScheduledRun(job, run);
        try {
          const result = await runProcessor({
            id: job.id!,
            attempt: job.attemptsMade + 1,
            scheduledFor: run?.slot,
            reportProgress: (pct) => job.updateProgress(pct),
          });
          if (run && this.pool) await recordScheduleRun(this.pool, run.key, job.id!, 'completed').catch(() => {});
          return result;
        } catch (err) {
          if (err instanceof PermanentJobError) throw new UnrecoverableError(err.message);
          if (err instanceof RetryLaterJobError) {
            // BullMQ's documented manual delay: no attempt is used up.
            await job.moveToDelayed(err.at.getTime(), token);
            throw new DelayedError();
          }
          throw err;
        }
      },
      {
        connection: workerConnection,
        prefix: this.prefix,
        concurrency: opts.concurrency ?? 2,
      },
    );
    worker.on('failed', (job, err) => {
      this.logger.warn({ job: job?.name, id: job?.id, attempt: job?.attemptsMade, err }, 'job attempt failed');
      if (job) void this.afterFailure(job, err);
    });
    worker.on('error', (err) => this.logger.error({ err }, 'bullmq worker error'));
    this.workers.set(queueName, worker);
  }

  /**
   * A scheduled run starts: note it, and for a catch-up schedule enqueue the slots missed since the
   * last run (BullMQ's scheduler itself keeps one pending run, so a long outage leaves one).
   */
  private async startScheduledRun(job: Job, run: { key: string; slot: string }) {
    if (!this.pool) return;
    try {
      await recordScheduleRun(this.pool, run.key, job.id!, 'running');
      const { rows } = await this.pool.query<{ before: Date | null; cron: string; catch_up: boolean }>(
        `with old as (select key, last_slot from jobs.schedules where key = $1 for update)
         update jobs.schedules s set last_slot = $2 from old
          where s.key = old.key and (old.last_slot is null or old.last_slot < $2)
         returning old.last_slot as before, s.cron, s.catch_up`,
        [run.key, run.slot],
      );
      const r = rows[0];
      if (!r?.catch_up || !r.before) return;
      const missed = dueSlots({ cron: r.cron, lastSlot: r.before, now: new Date(new Date(run.slot).getTime() - 1), catchUp: true });
      const spec = this.scheduleSpecs.get(run.key);
      for (const slot of missed) {
        await this.queue(job.queueName).add(job.name, job.data, {
          jobId: `schedule:${run.key}:${slot.toISOString()}`,
          ...this.jobOptions(spec?.attempts ?? DEFAULT_ATTEMPTS, spec?.backoffMs ?? DEFAULT_SCHEDULE_BACKOFF_MS),
        });
      }
    } catch (err) {
      this.logger.warn({ err, schedule: run.key }, 'could not record a scheduled run');
    }
  }

  private async afterFailure(job: Job, err: Error) {
    const final = err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    const run = scheduledRun(job);
    if (!this.pool) return;
    try {
      if (run) await recordScheduleRun(this.pool, run.key, job.id!, final ? 'failed' : 'retrying', errorText(err));
      if (final) {
        await writeJobFailed(this.pool, {
          jobId: job.id!,
          name: job.name,
          error: errorText(err),
          attempts: Math.max(1, job.attemptsMade),
          scheduleKey: run?.key ?? null,
        });
      }
    } catch (e) {
      this.logger.error({ err: e, job: job.name, id: job.id }, 'could not record a failed job');
    }
  }

  async schedule<N extends JobName>(s: ScheduleSpec<N>): Promise<void> {
    validate(s.job, s.payload);
    assertCron(s.cron);
    if (this.pool)
      await upsertSchedule(this.pool, { key: s.key, job: s.job, cron: s.cron, payload: s.payload, catchUp: s.catchUp ?? false });
    this.scheduleSpecs.set(s.key, s);
    // BullMQ's job scheduler: one job per slot (its id is repeat:<key>:<slot ms>), whatever the replicas.
    await this.queue(JOBS[s.job].queue).upsertJobScheduler(
      s.key,
      { pattern: s.cron, tz: SCHEDULE_TIME_ZONE },
      {
        name: s.job,
        data: s.payload,
        opts: this.jobOptions(s.attempts ?? DEFAULT_ATTEMPTS, s.backoffMs ?? DEFAULT_SCHEDULE_BACKOFF_MS),
      },
    );
  }

  async status(name: JobName, id: string): Promise<JobStatus | null> {
    const queue = this.queue(JOBS[name].queue);
    // State first, then the job's fields: read the other way round, a job that fails in between
    // would show 'failed' without its reason.
    const state: string = await queue.getJobState(id);
    if (state === 'unknown') return null;
    const job = await queue.getJob(id);
    if (!job) return null;
    return {
      id,
      name: job.name,
      state: isKnownState(state) ? state : state === 'prioritized' || state === 'waiting-children' ? 'waiting' : 'unknown',
      attemptsMade: job.attemptsMade,
      progress: typeof job.progress === 'number' ? job.progress : 0,
      result: job.returnvalue,
      failedReason: job.failedReason || undefined,
    };
  }

  async listSchedules(): Promise<ScheduleView[]> {
    const now = new Date();
    if (this.pool) return (await readSchedules(this.pool)).map((r) => toScheduleView(r, now));
    const views: ScheduleView[] = [];
    for (const queueName of Object.values(QUEUES)) {
      for (const s of await this.queue(queueName).getJobSchedulers()) {
        if (!s.pattern || !isJobName(s.name)) continue;
        views.push(
          toScheduleView(
            {
              key: s.key,
              job: s.name,
              cron: s.pattern,
              time_zone: s.tz ?? SCHEDULE_TIME_ZONE,
              payload: null,
              catch_up: false,
              last_slot: null,
              last_job_id: null,
              last_run_at: null,
              last_outcome: null,
              last_error: null,
            },
            now,
          ),
        );
      }
    }
    return views;
  }

  /** Failed jobs of every queue, read from Redis (so any instance can list them all). */
  async listFailed(limit = FAILED_JOBS_SHOWN): Promise<FailedJobView[]> {
    const all: FailedJobView[] = [];
    for (const queueName of Object.values(QUEUES)) {
      for (const job of await this.queue(queueName).getFailed(0, limit - 1)) {
        if (!job?.id) continue;
        all.push(
          failedView({
            id: job.id,
            name: job.name,
            error: job.failedReason || 'Failed',
            attempts: job.attemptsMade,
            createdAt: new Date(job.timestamp),
            failedAt: job.finishedOn ? new Date(job.finishedOn) : null,
            scheduleKey: scheduledRun(job)?.key ?? null,
          }),
        );
      }
    }
    return all.sort((a, b) => (b.failed_at ?? '').localeCompare(a.failed_at ?? '')).slice(0, limit);
  }

  async retry(name: JobName, id: string): Promise<boolean> {
    const queue = this.queue(JOBS[name].queue);
    const job = await queue.getJob(id);
    if (!job || job.name !== name || (await job.getState()) !== 'failed') return false;
    await job.retry('failed');
    return true;
  }

  async isReady(): Promise<boolean> {
    try {
      return (await this.connection.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.workers.values()].map((w) => w.close()));
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    await Promise.allSettled([this.connection, ...this.workerConnections].map((c) => c.quit()));
  }
}

export { jobsAdminPlugin } from './jobs/admin-routes.js';
