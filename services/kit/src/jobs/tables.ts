import { boolean, jsonb, pgSchema, text, timestamp } from 'drizzle-orm/pg-core';
import { outboxTables } from '../outbox-tables.js';

/**
 * The job platform's own schema: the declared schedules (both queues) and the outbox its jobs.failed
 * events go through. The durable queue's jobs themselves live in pg-boss's schema (`pgboss`).
 */
export const JOBS_SCHEMA = 'jobs';
export const jobsSchema = pgSchema(JOBS_SCHEMA);

export const { outbox: jobsOutbox, processedEvents: jobsProcessedEvents } = outboxTables(jobsSchema);

export const schedules = jobsSchema.table('schedules', {
  key: text('key').primaryKey(),
  job: text('job').notNull(),
  cron: text('cron').notNull(),
  timeZone: text('time_zone').notNull().default('Europe/London'),
  payload: jsonb('payload').notNull(),
  catchUp: boolean('catch_up').notNull().default(false),
  /** The newest slot a run was enqueued for (PostgreSQL queue); the next run is the first slot after it. */
  lastSlot: timestamp('last_slot', { withTimezone: true }),
  lastJobId: text('last_job_id'),
  /** The latest run as the worker saw it: when it started, and how it ended. */
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  lastOutcome: text('last_outcome'),
  lastError: text('last_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
