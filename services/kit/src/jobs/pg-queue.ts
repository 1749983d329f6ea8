import { FAILED_JOBS_SHOWN, JOBS, type FailedJobView, type JobName, type JobPayload, type ScheduleView } from '@countinghouse/proto';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Logger } from 'pino';
import { randomUUID } from 'node:crypto';
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
} from './core.js';
import { assertCron, dueSlots } from './slots.js';
import {
  errorText,
  failedView,
  jobUuid,
  migrateJobsSchema,
  readSchedules,
  recordScheduleRun,
  toScheduleView,
  upsertSchedule,
  writeJobFailed,
} from './store.js';

export const PGBOSS_SCHEMA = 'pgboss';

/** What a pg-boss job's data holds: the payload, and what the queue itself needs to know. */
interface Envelope {
  payload: unknown;
  backoffMs: number;
  schedule?: { key: string; slot: string };
}

interface JobRow {
  id: string;
  name: string;
  data: Envelope;
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  retry_count: number;
  retry_limit: number;
  start_after: Date;
  created_on: Date;
  completed_on: Date | null;
  output: { value?: unknown; progress?: number; error?: string; message?: string } | null;
}

export interface PgJobQueueOptions {
  pool: pg.Pool;
  logger: Logger;
  /**
   * How often an idle worker asks PostgreSQL for work. A job enqueued in this process wakes its
   * workers at once; this bounds the wait for one enqueued by another process (a second instance).
   */
  pollingIntervalMs?: number;
  /** How often this process checks its schedules for a due slot. */
  scheduleTickMs?: number;
}

type Running = {
  /** The processor, given a job's payload as stored: checked against the job's schema first (validate). */
  fn: (payload: unknown, ctx: JobContext) => Promise<unknown>;
  concurrency: number;
  active: number;
  timer: NodeJS.Timeout | null;
  fetching: boolean;
  /** Woken while a fetch was under way (it may have missed the new job): fetch again after it. */
  again: boolean;
};

/**
 * The durable queue of the all-in-one mode: pg-boss keeps the jobs in the product's own PostgreSQL
 * (schema pgboss), fetches them with SKIP LOCKED and expires jobs whose worker died. Attempts,
 * backoff in milliseconds, permanent errors, progress and the jobs.failed event are this class's:
 * a failed attempt, its next start and (on the last) the event commit in one transaction.
 */
export class PgJobQueue implements JobQueue {
  readonly kind = 'postgres' as const;
  private readonly boss: PgBoss;
  private readonly pool: pg.Pool;
  private readonly logger: Logger;
  private readonly pollingIntervalMs: number;
  private readonly scheduleTickMs: number;
  private readonly running = new Map<JobName, Running>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly scheduleKeys = new Set<string>();
  private scheduleTimer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private closed = false;
  private started = false;

  constructor(o: PgJobQueueOptions) {
    this.pool = o.pool;
    this.logger = o.logger;
    this.pollingIntervalMs = o.pollingIntervalMs ?? 1000;
    this.scheduleTickMs = o.scheduleTickMs ?? 15_000;
    this.boss = new PgBoss({
      db: { executeSql: (text: string, values: unknown[]) => this.pool.query(text, values) },
      schema: PGBOSS_SCHEMA,
      // Schedules are ours (a missed slot runs on return); pg-boss's cron would skip it.
      schedule: false,
      supervise: true,
      migrate: true,
      // Failed jobs stay listed (and retryable) for 30 days, then move to the archive.
      archiveFailedAfterSeconds: 30 * 24 * 3600,
      deleteAfterDays: 30,
    });
    this.boss.on('error', (err) => this.logger.warn({ err }, 'pg-boss maintenance error'));
  }

  /** Create the schemas (jobs, pgboss) if needed and every job's queue; idempotent, safe on replicas. */
  async start(): Promise<void> {
    if (this.started) return;
    await migrateJobsSchema(this.pool);
    await this.boss.start();
    const existing = new Set((await this.boss.getQueues()).map((q) => q.name));
    for (const name of Object.keys(JOBS)) {
      if (!existing.has(name)) await this.boss.createQueue(name).catch((err) => this.ignoreDuplicate(err));
    }
    this.started = true;
  }

  private ignoreDuplicate(err: unknown) {
    // Two processes creating one queue at once: the second's insert conflicts, the queue exists.
    if (!/duplicate|already exists/i.test(errorText(err))) throw err;
  }

  async enqueue<N extends JobName>(name: N, payload: JobPayload<N>, opts: EnqueueOptions = {}): Promise<string> {
    validate(name, payload);
    const given = opts.jobId ?? randomUUID();
    await this.send(
      this.pool,
      name,
      { payload, backoffMs: opts.backoffMs ?? DEFAULT_BACKOFF_MS },
      {
        id: jobUuid(name, given),
        attempts: opts.attempts ?? DEFAULT_ATTEMPTS,
        startAfter: opts.delayMs ? new Date(Date.now() + opts.delayMs) : undefined,
      },
    );
    if (!opts.delayMs) this.wake(name);
    return given;
  }

  /** Insert one job (an existing id is left as it is: enqueueing twice runs once). */
  private async send(
    db: Pick<pg.Pool | pg.PoolClient, 'query'>,
    name: JobName,
    data: Envelope,
    o: { id: string; attempts: number; startAfter?: Date; priority?: number },
  ): Promise<void> {
    await this.boss.send(name, data, {
      id: o.id,
      retryLimit: Math.max(0, o.attempts - 1),
      // Used only when pg-boss itself fails a job (its worker died and the job expired).
      retryDelay: Math.max(1, Math.ceil(data.backoffMs / 1000)),
      retryBackoff: true,
      startAfter: o.startAfter,
      ...(o.priority !== undefined ? { priority: o.priority } : {}),
      db: { executeSql: (text: string, values: unknown[]) => db.query(text, values) },
    });
  }

  process<N extends JobName>(name: N, processor: JobProcessor<N>, opts: { concurrency?: number } = {}): void {
    const prev = this.running.get(name);
    if (prev?.timer) clearTimeout(prev.timer);
    this.running.set(name, {
      fn: (payload, ctx) => processor(validate(name, payload), ctx),
      concurrency: opts.concurrency ?? 2,
      active: 0,
      timer: null,
      fetching: false,
      again: false,
    });
    this.wake(name);
  }

  /** Fetch now (a job was enqueued here, or a slot freed up) instead of at the next poll. */
  private wake(name: JobName) {
    const r = this.running.get(name);
    if (!r || this.closed) return;
    if (r.timer) clearTimeout(r.timer);
    r.timer = null;
    void this.pump(name, r);
  }

  private async pump(name: JobName, r: Running): Promise<void> {
    if (this.closed) return;
    if (r.fetching) {
      r.again = true;
      return;
    }
    r.fetching = true;
    r.again = false;
    let fetched = 0;
    try {
      const free = r.concurrency - r.active;
      if (free > 0) {
        const jobs = ((await this.boss.fetch<Envelope>(name, { batchSize: free, includeMetadata: true })) ?? []).map((j) => ({
          id: j.id,
          data: j.data,
          retryCount: j.retryCount,
          retryLimit: j.retryLimit,
        }));
        fetched = jobs.length;
        for (const job of jobs) {
          r.active++;
          const p = this.run(name, r, job).finally(() => {
            r.active--;
            this.inFlight.delete(p);
            this.wake(name);
          });
          this.inFlight.add(p);
        }
      }
    } catch (err) {
      if (!this.closed) this.logger.warn({ err, job: name }, 'job fetch failed');
    } finally {
      r.fetching = false;
    }
    if (this.closed) return;
    // A full batch may mean more is waiting: ask again at once; otherwise wait for the next poll.
    if ((fetched > 0 || r.again) && r.active < r.concurrency) return void this.pump(name, r);
    if (!r.timer) {
      r.timer = setTimeout(() => {
        r.timer = null;
        void this.pump(name, r);
      }, this.pollingIntervalMs);
      r.timer.unref?.();
    }
  }

  private async run(name: JobName, r: Running, job: { id: string; data: Envelope; retryCount: number; retryLimit: number }) {
    const attempt = job.retryCount + 1;
    const env = job.data;
    const scheduleKey = env.schedule?.key ?? null;
    if (scheduleKey) await recordScheduleRun(this.pool, scheduleKey, job.id, 'running').catch(() => {});
    try {
      // (fn checks the payload against the job's schema before the processor sees it)
      const result = await r.fn(env.payload, {
        id: job.id,
        attempt,
        scheduledFor: env.schedule?.slot,
        reportProgress: async (pct) => {
          await this.pool.query(
            `update ${PGBOSS_SCHEMA}.job set output = jsonb_build_object('progress', $3::int) where name = $1 and id = $2 and state = 'active'`,
            [name, job.id, Math.round(pct)],
          );
        },
      });
      await this.boss.complete(name, job.id, { value: result ?? null, progress: 100 });
      if (scheduleKey) await recordScheduleRun(this.pool, scheduleKey, job.id, 'completed').catch(() => {});
    } catch (err) {
      if (err instanceof RetryLaterJobError && !this.closed) {
        await this.deferJob(name, job.id, err).catch((e) => this.logger.error({ err: e, job: name, id: job.id }, 'could not defer a job'));
        return;
      }
      await this.failAttempt(name, job, attempt, err, scheduleKey).catch((e) =>
        this.logger.error({ err: e, job: name, id: job.id }, 'could not record a failed job attempt'),
      );
    }
  }

  /**
   * Not a failure: the job waits until `err.at` and uses up no attempt (back to 'created' with no start,
   * so pg-boss's next fetch does not count a retry).
   */
  private async deferJob(name: JobName, id: string, err: RetryLaterJobError) {
    await this.pool.query(
      `update ${PGBOSS_SCHEMA}.job set state = 'created'::${PGBOSS_SCHEMA}.job_state, started_on = null,
         start_after = $3::timestamptz, output = jsonb_build_object('deferredUntil', $3::text)
       where name = $1 and id = $2 and state = 'active'`,
      [name, id, err.at.toISOString()],
    );
    this.logger.info({ job: name, id, at: err.at.toISOString() }, 'job deferred');
    const t = setTimeout(() => this.wake(name), err.delayMs() + 5);
    t.unref?.();
  }

  /** One transaction: the attempt's outcome, its next start (or final failure) and the jobs.failed event. */
  private async failAttempt(
    name: JobName,
    job: { id: string; data: Envelope; retryLimit: number },
    attempt: number,
    err: unknown,
    scheduleKey: string | null,
  ) {
    const permanent = err instanceof PermanentJobError;
    const final = permanent || attempt >= job.retryLimit + 1;
    const message = errorText(err);
    const delayMs = (job.data.backoffMs ?? DEFAULT_BACKOFF_MS) * 2 ** (attempt - 1);
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query(
        `update ${PGBOSS_SCHEMA}.job set
           state = (case when $3 then 'failed' else 'retry' end)::${PGBOSS_SCHEMA}.job_state,
           start_after = case when $3 then start_after else now() + $4::int * interval '1 millisecond' end,
           completed_on = case when $3 then now() else null end,
           output = jsonb_build_object('error', $5::text)
         where name = $1 and id = $2 and state = 'active'
         returning id`,
        [name, job.id, final, delayMs, message],
      );
      if (rows.length > 0 && final) {
        await writeJobFailed(client, { jobId: job.id, name, error: message, attempts: attempt, scheduleKey });
      }
      if (scheduleKey) await recordScheduleRun(client, scheduleKey, job.id, final ? 'failed' : 'retrying', message);
      await client.query('commit');
    } catch (e) {
      await client.query('rollback').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
    if (final) this.logger.error({ job: name, id: job.id, attempt, err }, 'job failed');
    else {
      this.logger.warn({ job: name, id: job.id, attempt, err }, 'job failed, retrying');
      const t = setTimeout(() => this.wake(name), delayMs + 5);
      t.unref?.();
    }
  }

  async schedule<N extends JobName>(s: ScheduleSpec<N>): Promise<void> {
    validate(s.job, s.payload);
    assertCron(s.cron);
    await upsertSchedule(this.pool, { key: s.key, job: s.job, cron: s.cron, payload: s.payload, catchUp: s.catchUp ?? false });
    this.scheduleSpecs.set(s.key, { attempts: s.attempts, backoffMs: s.backoffMs });
    this.scheduleKeys.add(s.key);
    if (!this.scheduleTimer && !this.closed) {
      this.scheduleTimer = setInterval(() => void this.tickSchedules(), this.scheduleTickMs);
      this.scheduleTimer.unref?.();
    }
    await this.tickSchedules();
  }

  private readonly scheduleSpecs = new Map<string, { attempts?: number; backoffMs?: number }>();

  /** Enqueue every due slot of this process's schedules; one pass at a time. */
  tickSchedules(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = (async () => {
      for (const key of this.scheduleKeys) {
        if (this.closed) break;
        await this.tickSchedule(key).catch((err) => this.logger.warn({ err, schedule: key }, 'schedule check failed'));
      }
    })().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  /**
   * One schedule, one transaction: the row is locked (another instance checking it at the same time
   * skips it), the due slots' jobs are inserted with ids derived from (key, slot), and the last slot
   * moves on. Committed together, so a slot is enqueued once whatever the replicas and restarts.
   */
  private async tickSchedule(key: string): Promise<void> {
    const client = await this.pool.connect();
    let enqueued: JobName | null = null;
    try {
      await client.query('begin');
      const { rows } = await client.query<{ job: string; cron: string; payload: unknown; catch_up: boolean; last_slot: Date }>(
        `select job, cron, payload, catch_up, last_slot from jobs.schedules where key = $1 for update skip locked`,
        [key],
      );
      const row = rows[0];
      if (!row || !isJobName(row.job)) {
        await client.query('commit');
        return;
      }
      const slots = dueSlots({ cron: row.cron, lastSlot: row.last_slot, now: new Date(), catchUp: row.catch_up });
      if (slots.length > 0) {
        const spec = this.scheduleSpecs.get(key) ?? {};
        let lastId = '';
        for (const [i, slot] of slots.entries()) {
          const slotIso = slot.toISOString();
          lastId = jobUuid(row.job, `schedule:${key}:${slotIso}`);
          await this.send(
            client,
            row.job,
            { payload: row.payload, backoffMs: spec.backoffMs ?? DEFAULT_SCHEDULE_BACKOFF_MS, schedule: { key, slot: slotIso } },
            // One transaction gives them one created_on: the priority runs the oldest missed slot first.
            { id: lastId, attempts: spec.attempts ?? DEFAULT_ATTEMPTS, priority: slots.length - 1 - i },
          );
        }
        await client.query(`update jobs.schedules set last_slot = $2, last_job_id = $3, updated_at = now() where key = $1`, [
          key,
          slots[slots.length - 1],
          lastId,
        ]);
        enqueued = row.job;
        this.logger.info({ schedule: key, slots: slots.map((s) => s.toISOString()) }, 'scheduled run enqueued');
      }
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
    if (enqueued) this.wake(enqueued);
  }

  async status(name: JobName, id: string): Promise<JobStatus | null> {
    const { rows } = await this.pool.query<JobRow>(
      `select id, name, data, state, retry_count, retry_limit, start_after, created_on, completed_on, output
         from ${PGBOSS_SCHEMA}.job where name = $1 and id = $2
       union all
       select id, name, data, state, retry_count, retry_limit, start_after, created_on, completed_on, output
         from ${PGBOSS_SCHEMA}.archive where name = $1 and id = $2
       limit 1`,
      [name, jobUuid(name, id)],
    );
    const j = rows[0];
    if (!j) return null;
    const out = j.output ?? {};
    const state: JobState =
      j.state === 'created'
        ? j.start_after.getTime() > Date.now()
          ? 'delayed'
          : 'waiting'
        : j.state === 'retry'
          ? 'delayed'
          : j.state === 'cancelled'
            ? 'unknown'
            : j.state;
    return {
      id,
      name: j.name,
      state,
      // Attempts begun: none while first waiting; the retry count is raised as each retry starts.
      attemptsMade: j.state === 'created' ? 0 : j.retry_count + 1,
      progress: j.state === 'completed' ? 100 : typeof out.progress === 'number' ? out.progress : 0,
      result: j.state === 'completed' ? out.value : undefined,
      failedReason: typeof out.error === 'string' ? out.error : undefined,
    };
  }

  async listSchedules(): Promise<ScheduleView[]> {
    const now = new Date();
    return (await readSchedules(this.pool)).map((r) => toScheduleView(r, now));
  }

  async listFailed(limit = FAILED_JOBS_SHOWN): Promise<FailedJobView[]> {
    const { rows } = await this.pool.query<JobRow>(
      `select id, name, data, state, retry_count, retry_limit, start_after, created_on, completed_on, output
         from ${PGBOSS_SCHEMA}.job where state = 'failed' order by completed_on desc nulls last, id limit $1`,
      [limit],
    );
    return rows.map((j) =>
      failedView({
        id: j.id,
        name: j.name,
        error: typeof j.output?.error === 'string' ? j.output.error : (j.output?.message ?? 'Failed'),
        attempts: j.retry_count + 1,
        createdAt: j.created_on,
        failedAt: j.completed_on,
        scheduleKey: j.data?.schedule?.key ?? null,
      }),
    );
  }

  async retry(name: JobName, id: string): Promise<boolean> {
    // One more attempt for a job that failed for good: back to 'retry' with one more allowed.
    const { rowCount } = await this.pool.query(
      `update ${PGBOSS_SCHEMA}.job set state = 'retry', retry_limit = retry_count + 1, start_after = now(), completed_on = null
        where name = $1 and id = $2 and state = 'failed'`,
      [name, jobUuid(name, id)],
    );
    if (rowCount) this.wake(name);
    return Boolean(rowCount);
  }

  async isReady(): Promise<boolean> {
    if (this.closed || !this.started) return false;
    try {
      await this.pool.query('select 1');
      return true;
    } catch {
      return false;
    }
  }

  /** Stop fetching, let running jobs finish (up to `graceMs`), stop pg-boss's maintenance. */
  async close(graceMs = 5000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.scheduleTimer) clearInterval(this.scheduleTimer);
    for (const r of this.running.values()) if (r.timer) clearTimeout(r.timer);
    await this.ticking?.catch(() => {});
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((r) => setTimeout(r, graceMs).unref?.())]);
    await this.boss.stop({ graceful: false, wait: true, close: false }).catch(() => {});
  }
}
