import { outboxTables } from '@countinghouse/kit';
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { RequestedBy, ScriptGenerator, ScriptStatus, VideoScript, VideoType } from '@countinghouse/proto';

export const SCHEMA = 'media';
export const media = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(media);

/** One request to generate a video script: the job's status while it runs, then its result. */
export const generatedScripts = media.table(
  'generated_scripts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').$type<VideoType>().notNull(),
    prompt: text('prompt'),
    status: text('status').$type<ScriptStatus>().notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    script: jsonb('script').$type<VideoScript>(),
    text: text('text'),
    generator: text('generator').$type<ScriptGenerator>(),
    model: text('model'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    requestedByKind: text('requested_by_kind').$type<RequestedBy['kind']>().notNull(),
    requestedById: text('requested_by_id').notNull(),
    requestedByName: text('requested_by_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('generated_scripts_type_check', sql`${t.type} in ('company_overview', 'website_demo', 'custom')`),
    check('generated_scripts_status_check', sql`${t.status} in ('queued', 'running', 'completed', 'failed')`),
    check('generated_scripts_generator_check', sql`${t.generator} is null or ${t.generator} in ('openai', 'template')`),
    check('generated_scripts_progress_check', sql`${t.progress} between 0 and 100`),
    // The earlier-scripts list: newest first.
    index('generated_scripts_created_idx').on(t.createdAt.desc(), t.id.desc()),
    // Unfinished work, re-enqueued when the service starts (in-process jobs do not survive a restart).
    index('generated_scripts_unfinished_idx')
      .on(t.createdAt)
      .where(sql`status in ('queued', 'running')`),
  ],
);
export type GeneratedScriptRow = typeof generatedScripts.$inferSelect;
