import { JOBS, type FailedJobView, type JobName, type JobPayload, type ScheduleView } from '@countinghouse/proto';
import { Value } from '@sinclair/typebox/value';

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
  /** The slot a scheduled run is for (ISO, UTC), e.g. 2026-03-30T02:30:00.000Z for 03:30 BST; absent for other jobs. */
  scheduledFor?: string;
  reportProgress(pct: number): Promise<void>;
}

export type JobProcessor<N extends JobName> = (payload: JobPayload<N>, ctx: JobContext) => Promise<unknown>;

export interface EnqueueOptions {
  attempts?: number;
  backoffMs?: number;
  jobId?: string;
  delayMs?: number;
}

/**
 * A named schedule: `cron` (five fields) in Europe/London time. One run per slot however many
 * replicas or restarts; a slot missed while the product was down runs once on return, or every
 * missed slot (up to a month of them) when `catchUp` is set.
 */
export interface ScheduleSpec<N extends JobName> {
  key: string;
  cron: string;
  job: N;
  payload: JobPayload<N>;
  catchUp?: boolean;
  attempts?: number;
  backoffMs?: number;
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

/**
 * The job queue: BullMQ on Redis in distributed mode, pg-boss on the product's own PostgreSQL in
 * all-in-one (docs/decisions.md). The same processors, validation, retries and status on both.
 */
export interface JobQueue {
  readonly kind: 'postgres' | 'bullmq';
  enqueue<N extends JobName>(name: N, payload: JobPayload<N>, opts?: EnqueueOptions): Promise<string>;
  process<N extends JobName>(name: N, processor: JobProcessor<N>, opts?: { concurrency?: number }): void;
  schedule<N extends JobName>(s: ScheduleSpec<N>): Promise<void>;
  status(name: JobName, id: string): Promise<JobStatus | null>;
  /** Every declared schedule with its last and next run (for the job status page). */
  listSchedules(): Promise<ScheduleView[]>;
  /** Jobs that failed for good, newest first. */
  listFailed(limit?: number): Promise<FailedJobView[]>;
  /** Run a failed job once more; false when it is not (or no longer) failed. */
  retry(name: JobName, id: string): Promise<boolean>;
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}

export function isJobName(name: string): name is JobName {
  return Object.prototype.hasOwnProperty.call(JOBS, name);
}

export function validate<N extends JobName>(name: N, payload: unknown): JobPayload<N> {
  const def = JOBS[name];
  if (!def) throw new PermanentJobError(`Unknown job ${name}`);
  if (!Value.Check(def.schema, payload)) {
    const first = [...Value.Errors(def.schema, payload)][0];
    throw new PermanentJobError(`Invalid payload for ${name}: ${first?.path} ${first?.message}`);
  }
  return payload;
}

export const DEFAULT_ATTEMPTS = 5;
export const DEFAULT_BACKOFF_MS = 1000;
/** Scheduled housekeeping is not urgent: a minute, then two, four... between its attempts. */
export const DEFAULT_SCHEDULE_BACKOFF_MS = 60_000;
