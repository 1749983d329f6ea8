import { Type, type Static } from '@sinclair/typebox';
import type { JobName } from './jobs.js';

// The job status page (/admin/jobs, routes under /api/jobs) and the jobs.failed event. Browser-safe.

/** What each job is called on the status page and in a failure notification. */
export const JOB_LABELS: Record<JobName, string> = {
  'identity.purge_expired_sessions': 'Sign-in housekeeping',
  'integrations.sync': 'Accounting integration sync',
  'media.generate_script': 'Video script generation',
  'integrations.keep_alive': 'Accounting connections kept alive',
  'integrations.mtd_daily': 'MTD authorisation requests checked with HMRC',
  'deadlines.daily': 'Deadline tasks and overdue notices',
  'deadlines.companies_house_refresh': 'Companies House refresh',
  'aml.daily': 'AML review reminders',
  'engagement.reminders': 'Engagement letter reminders',
  'requests.daily': 'Client requests opened and chased',
  'records.retention': 'Retention: expired records erased',
};
const LABEL_OF_NAME: Readonly<Record<string, string>> = JOB_LABELS;
export const jobLabel = (name: string): string => LABEL_OF_NAME[name] ?? name;

export const JOBS_ROUTES = {
  overview: '/api/jobs',
  retry: (name: string, id: string) => `/api/jobs/failed/${encodeURIComponent(name)}/${encodeURIComponent(id)}/retry`,
} as const;

/** How many failed jobs the page lists (newest first). */
export const FAILED_JOBS_SHOWN = 100;

export const ScheduleOutcomeSchema = Type.Union([
  Type.Literal('running'),
  Type.Literal('completed'),
  Type.Literal('retrying'),
  Type.Literal('failed'),
]);
export type ScheduleOutcome = Static<typeof ScheduleOutcomeSchema>;

export const ScheduleViewSchema = Type.Object({
  key: Type.String(),
  job: Type.String(),
  label: Type.String(),
  cron: Type.String(),
  time_zone: Type.String(),
  catch_up: Type.Boolean(),
  last_run_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_outcome: Type.Union([ScheduleOutcomeSchema, Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  next_run_at: Type.String({ format: 'date-time' }),
});
export type ScheduleView = Static<typeof ScheduleViewSchema>;

export const FailedJobViewSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  label: Type.String(),
  error: Type.String(),
  attempts: Type.Integer({ minimum: 0 }),
  created_at: Type.String({ format: 'date-time' }),
  failed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  schedule_key: Type.Union([Type.String(), Type.Null()]),
});
export type FailedJobView = Static<typeof FailedJobViewSchema>;

export const JobsOverviewSchema = Type.Object({
  queue: Type.Union([Type.Literal('postgres'), Type.Literal('bullmq')]),
  schedules: Type.Array(ScheduleViewSchema),
  failed: Type.Array(FailedJobViewSchema),
});
export type JobsOverview = Static<typeof JobsOverviewSchema>;

export const RetryJobParamsSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  id: Type.String({ minLength: 1, maxLength: 200 }),
});
export type RetryJobParams = Static<typeof RetryJobParamsSchema>;
export const RetryJobResponseSchema = Type.Object({ retried: Type.Literal(true), id: Type.String() });
export type RetryJobResponse = Static<typeof RetryJobResponseSchema>;

export const JOBS_MESSAGES = {
  retryNotFound: 'That job is no longer waiting for a retry: it has already been retried or was removed.',
  retried: 'The job was queued again.',
} as const;

/** A job failed for good (its last attempt, or an error retrying cannot fix); not sent for each retry. */
export const JobFailedSchema = Type.Object({
  jobId: Type.String(),
  name: Type.String(),
  error: Type.String(),
  attempts: Type.Integer({ minimum: 1 }),
  scheduleKey: Type.Union([Type.String(), Type.Null()]),
  // ISO 8601 (no 'format': events are checked with TypeBox's Value, which knows no formats).
  failedAt: Type.String(),
});

export const JOBS_EVENTS = {
  'jobs.failed': JobFailedSchema,
} as const;
