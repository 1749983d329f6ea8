import { JOBS, type JobName, type JobPayload } from '@countinghouse/proto';
import { Value } from '@sinclair/typebox/value';
import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';

export type JobState = 'waiting' | 'active' | 'completed' | 'failed' | 'delayed' | 'unknown';

export interface JobStatus {
  id: string;
  name: string;
  state: JobState;
  attemptsMade: number;
  progress: number;
  result?: unknown;
  failedReason?: string;
}

export interface JobContext {
  id: string;
  attempt: number;
  reportProgress(pct: number): Promise<void>;
}

export type JobProcessor<N extends JobName> = (payload: JobPayload<N>, ctx: JobContext) => Promise<unknown>;

export interface EnqueueOptions {
  attempts?: number;
  backoffMs?: number;
  jobId?: string;
  delayMs?: number;
}

/** An error that retrying cannot fix (bad payload, revoked grant): the job fails at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

/**
 * The processor cannot do its work now but can at `at` (a provider's Retry-After, a rate budget that
 * refills then): the queue runs the job again at that time. This is not a failure, so it uses up no
 * attempt; the processor decides when waiting has gone on too long (it throws PermanentJobError).
 */
export class RetryLaterJobError extends Error {
  override name = 'RetryLaterJobError';
  constructor(
    readonly at: Date,
    message: string,
  ) {
    super(message);
  }
  /** Milliseconds from `now` until the retry (never negative). */
  delayMs(now = Date.now()): number {
    return Math.max(0, this.at.getTime() - now);
  }
}

/** The job queue: BullMQ on Redis in distributed mode, the in-process runner in all-in-one. */
export interface JobQueue {
  readonly kind: 'in-process' | 'bullmq';
  enqueue<N extends JobName>(name: N, payload: JobPayload<N>, opts?: EnqueueOptions): Promise<string>;
  process<N extends JobName>(name: N, processor: JobProcessor<N>, opts?: { concurrency?: number }): void;
  status(name: JobName, id: string): Promise<JobStatus | null>;
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}

function validate<N extends JobName>(name: N, payload: unknown): JobPayload<N> {
  const def = JOBS[name];
  if (!def) throw new PermanentJobError(`Unknown job ${name}`);
  if (!Value.Check(def.schema, payload)) {
    const first = [...Value.Errors(def.schema, payload)][0];
    throw new PermanentJobError(`Invalid payload for ${name}: ${first?.path} ${first?.message}`);
  }
  return payload as JobPayload<N>;
}

const DEFAULT_ATTEMPTS = 5;
const DEFAULT_BACKOFF_MS = 1000;

interface MemJob {
  id: string;
  name: JobName;
  payload: unknown;
  state: JobState;
  attemptsMade: number;
  attempts: number;
  backoffMs: number;
  progress: number;
  result?: unknown;
  failedReason?: string;
}

/** In-process runner: same processors, validation, retries with exponential backoff, and status. */
export class InProcessJobQueue implements JobQueue {
  readonly kind = 'in-process' as const;
  private jobs = new Map<string, MemJob>();
  private processors = new Map<string, { fn: JobProcessor<JobName>; concurrency: number; active: number }>();
  private pending: MemJob[] = [];
  private timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly logger: Logger) {}

  async enqueue<N extends JobName>(name: N, payload: JobPayload<N>, opts: EnqueueOptions = {}): Promise<string> {
    validate(name, payload);
    const id = opts.jobId ?? randomUUID();
    const existing = this.jobs.get(id);
    if (existing && existing.state !== 'completed' && existing.state !== 'failed') return id;
    const job: MemJob = {
      id,
      name,
      payload,
      state: 'waiting',
      attemptsMade: 0,
      attempts: opts.attempts ?? DEFAULT_ATTEMPTS,
      backoffMs: opts.backoffMs ?? DEFAULT_BACKOFF_MS,
      progress: 0,
    };
    this.jobs.set(id, job);
    if (opts.delayMs) this.later(job, opts.delayMs);
    else this.pending.push(job);
    this.pump();
    return id;
  }

  process<N extends JobName>(name: N, processor: JobProcessor<N>, opts: { concurrency?: number } = {}): void {
    this.processors.set(name, { fn: processor as unknown as JobProcessor<JobName>, concurrency: opts.concurrency ?? 2, active: 0 });
    this.pump();
  }

  private later(job: MemJob, ms: number) {
    job.state = 'delayed';
    const t = setTimeout(() => {
      this.timers.delete(t);
      job.state = 'waiting';
      this.pending.push(job);
      this.pump();
    }, ms);
    t.unref?.();
    this.timers.add(t);
  }

  private pump() {
    if (this.closed) return;
    for (let i = 0; i < this.pending.length; i++) {
      const job = this.pending[i]!;
      const proc = this.processors.get(job.name);
      if (!proc || proc.active >= proc.concurrency) continue;
      this.pending.splice(i--, 1);
      proc.active++;
      void this.run(job, proc).finally(() => {
        proc.active--;
        this.pump();
      });
    }
  }

  private async run(job: MemJob, proc: { fn: JobProcessor<JobName> }) {
    job.state = 'active';
    job.attemptsMade++;
    try {
      const payload = validate(job.name, job.payload);
      job.result = await proc.fn(payload, {
        id: job.id,
        attempt: job.attemptsMade,
        reportProgress: async (pct) => {
          job.progress = pct;
        },
      });
      job.state = 'completed';
      job.progress = 100;
    } catch (err) {
      if (err instanceof RetryLaterJobError && !this.closed) {
        job.attemptsMade--;
        this.logger.info({ job: job.name, id: job.id, at: err.at.toISOString() }, 'job deferred');
        this.later(job, err.delayMs());
        return;
      }
      job.failedReason = (err as Error)?.message ?? String(err);
      const permanent = err instanceof PermanentJobError || err instanceof UnrecoverableError;
      if (!permanent && job.attemptsMade < job.attempts && !this.closed) {
        this.logger.warn({ job: job.name, id: job.id, attempt: job.attemptsMade, err }, 'job failed, retrying');
        this.later(job, job.backoffMs * 2 ** (job.attemptsMade - 1));
      } else {
        job.state = 'failed';
        this.logger.error({ job: job.name, id: job.id, err }, 'job failed');
      }
    }
  }

  async status(_name: JobName, id: string): Promise<JobStatus | null> {
    const j = this.jobs.get(id);
    if (!j) return null;
    return {
      id: j.id,
      name: j.name,
      state: j.state,
      attemptsMade: j.attemptsMade,
      progress: j.progress,
      result: j.result,
      failedReason: j.failedReason,
    };
  }

  async isReady(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/** BullMQ on Redis: one Queue and one Worker per queue name, dispatching to processors by job name. */
export class BullMqJobQueue implements JobQueue {
  readonly kind = 'bullmq' as const;
  private queues = new Map<string, Queue>();
  private workers = new Map<string, Worker>();
  private processors = new Map<string, { fn: JobProcessor<JobName> }>();
  private connection: Redis;
  private workerConnections: Redis[] = [];

  constructor(
    private readonly redisUrl: string,
    private readonly logger: Logger,
    private readonly prefix = 'countinghouse',
  ) {
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

  async enqueue<N extends JobName>(name: N, payload: JobPayload<N>, opts: EnqueueOptions = {}): Promise<string> {
    validate(name, payload);
    const job = await this.queue(JOBS[name].queue).add(name, payload, {
      jobId: opts.jobId,
      attempts: opts.attempts ?? DEFAULT_ATTEMPTS,
      backoff: { type: 'exponential', delay: opts.backoffMs ?? DEFAULT_BACKOFF_MS },
      delay: opts.delayMs,
      removeOnComplete: { age: 24 * 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    });
    return job.id!;
  }

  process<N extends JobName>(name: N, processor: JobProcessor<N>, opts: { concurrency?: number } = {}): void {
    this.processors.set(name, { fn: processor as unknown as JobProcessor<JobName> });
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
        let payload: unknown;
        try {
          payload = validate(job.name as JobName, job.data);
        } catch (err) {
          throw new UnrecoverableError((err as Error).message);
        }
        try {
          return await proc.fn(payload as never, {
            id: job.id!,
            attempt: job.attemptsMade + 1,
            reportProgress: (pct) => job.updateProgress(pct),
          });
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
    worker.on('failed', (job, err) =>
      this.logger.warn({ job: job?.name, id: job?.id, attempt: job?.attemptsMade, err }, 'job attempt failed'),
    );
    worker.on('error', (err) => this.logger.error({ err }, 'bullmq worker error'));
    this.workers.set(queueName, worker);
  }

  async status(name: JobName, id: string): Promise<JobStatus | null> {
    const queue = this.queue(JOBS[name].queue);
    // State first, then the job's fields: read the other way round, a job that fails in between
    // would show 'failed' without its reason.
    const state = (await queue.getJobState(id)) as string;
    if (state === 'unknown') return null;
    const job = await queue.getJob(id);
    if (!job) return null;
    const known: JobState[] = ['waiting', 'active', 'completed', 'failed', 'delayed'];
    return {
      id,
      name: job.name,
      state: known.includes(state as JobState)
        ? (state as JobState)
        : state === 'prioritized' || state === 'waiting-children'
          ? 'waiting'
          : 'unknown',
      attemptsMade: job.attemptsMade,
      progress: typeof job.progress === 'number' ? job.progress : 0,
      result: job.returnvalue,
      failedReason: job.failedReason || undefined,
    };
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
