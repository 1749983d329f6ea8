import { jobLabel, TOPICS, type FailedJobView, type ScheduleOutcome, type ScheduleView } from '@countinghouse/proto';
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { fileURLToPath } from 'node:url';
import { runMigrations } from '../db.js';
import { errorMessage } from '../errors.js';
import { makeEnvelope, withOutboxNotify } from '../outbox.js';
import { nextSlot, previousSlot, SCHEDULE_TIME_ZONE } from './slots.js';
import { JOBS_SCHEMA } from './tables.js';

export const jobsMigrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** The kit's own tables (schedules, the jobs.failed outbox), migrated like a service's. */
export async function migrateJobsSchema(pool: pg.Pool): Promise<void> {
  await runMigrations(pool, JOBS_SCHEMA, jobsMigrationsFolder);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A caller's job id as a UUID (pg-boss ids are UUIDs): itself when it is one, else a stable hash of it. */
export function jobUuid(name: string, id: string): string {
  if (UUID.test(id)) return id.toLowerCase();
  const h = createHash('sha256').update(`${name}\u0000${id}`).digest('hex');
  // RFC 9562 version 8 (custom), variant 10.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface ScheduleRow {
  key: string;
  job: string;
  cron: string;
  time_zone: string;
  payload: unknown;
  catch_up: boolean;
  last_slot: Date | null;
  last_job_id: string | null;
  last_run_at: Date | null;
  last_outcome: ScheduleOutcome | null;
  last_error: string | null;
}

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/**
 * Declare (or change) a schedule. A new one starts from the slot just passed, so it first runs at its
 * next slot, not at once; a changed one keeps its last slot, so a restart never re-runs one.
 */
export async function upsertSchedule(
  db: Queryable,
  s: { key: string; job: string; cron: string; payload: unknown; catchUp: boolean },
  now = new Date(),
): Promise<void> {
  await db.query(
    `insert into jobs.schedules (key, job, cron, time_zone, payload, catch_up, last_slot)
     values ($1, $2, $3, $4, $5::jsonb, $6, $7)
     on conflict (key) do update set job = excluded.job, cron = excluded.cron, payload = excluded.payload,
       catch_up = excluded.catch_up, updated_at = now()
     where (schedules.job, schedules.cron, schedules.payload, schedules.catch_up)
       is distinct from (excluded.job, excluded.cron, excluded.payload, excluded.catch_up)`,
    [s.key, s.job, s.cron, SCHEDULE_TIME_ZONE, JSON.stringify(s.payload), s.catchUp, previousSlot(s.cron, now)],
  );
}

/** What a worker saw of a scheduled run: started, ended, or is being retried. */
export async function recordScheduleRun(
  db: Queryable,
  key: string,
  jobId: string,
  outcome: ScheduleOutcome,
  error: string | null = null,
): Promise<void> {
  await db.query(
    `update jobs.schedules set last_job_id = $2, last_outcome = $3, last_error = $4,
       last_run_at = case when $3 = 'running' then now() else coalesce(last_run_at, now()) end
     where key = $1`,
    [key, jobId, outcome, error],
  );
}

export async function readSchedules(db: Queryable, keys?: string[]): Promise<ScheduleRow[]> {
  const { rows } = await db.query<ScheduleRow>(
    keys ? `select * from jobs.schedules where key = any($1) order by key` : `select * from jobs.schedules order by key`,
    keys ? [keys] : [],
  );
  return rows;
}

export function toScheduleView(r: ScheduleRow, now = new Date()): ScheduleView {
  return {
    key: r.key,
    job: r.job,
    label: jobLabel(r.job),
    cron: r.cron,
    time_zone: r.time_zone,
    catch_up: r.catch_up,
    last_run_at: r.last_run_at ? r.last_run_at.toISOString() : null,
    last_outcome: r.last_outcome ?? null,
    last_error: r.last_error,
    next_run_at: nextSlot(r.cron, now).toISOString(),
  };
}

export function failedView(j: {
  id: string;
  name: string;
  error: string;
  attempts: number;
  createdAt: Date;
  failedAt: Date | null;
  scheduleKey: string | null;
}): FailedJobView {
  return {
    id: j.id,
    name: j.name,
    label: jobLabel(j.name),
    error: j.error,
    attempts: j.attempts,
    created_at: j.createdAt.toISOString(),
    failed_at: j.failedAt ? j.failedAt.toISOString() : null,
    schedule_key: j.scheduleKey,
  };
}

/** The jobs.failed event, written in the caller's transaction (the outbox of the jobs schema). */
export async function writeJobFailed(
  db: Queryable,
  d: { jobId: string; name: string; error: string; attempts: number; scheduleKey: string | null },
): Promise<void> {
  const envelope = makeEnvelope(
    'jobs.failed',
    { ...d, error: d.error.slice(0, 2000), failedAt: new Date().toISOString() },
    { kind: 'system', id: null },
  );
  const insert = `insert into jobs.outbox (event_id, topic, key, type, envelope) values ($1, $2, $3, 'jobs.failed', $4::jsonb) returning 1`;
  await db.query(withOutboxNotify(insert, JOBS_SCHEMA), [envelope.id, TOPICS.jobs, d.name, JSON.stringify(envelope)]);
}

export function errorText(err: unknown): string {
  return errorMessage(err) || 'Unknown error';
}
