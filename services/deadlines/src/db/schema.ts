import { outboxTables } from '@countinghouse/kit';
import type { CompanySnapshot, TaxProfileInput } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgSchema,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const SCHEMA = 'deadlines';
export const deadlinesSchema = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(deadlinesSchema);

/** A read model of crm's clients (crm.client_upserted): names, owner, accountant, status, business type. */
export const clientDirectory = deadlinesSchema.table(
  'client_directory',
  {
    clientId: text('client_id').primaryKey(),
    userId: text('user_id'),
    companyName: text('company_name').notNull(),
    businessType: text('business_type'),
    subscriptionStatus: text('subscription_status').notNull(),
    assignedAccountantId: text('assigned_accountant_id'),
    /** occurredAt of the event that wrote this row: an older event never overwrites a newer one. */
    sourceAt: timestamp('source_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('client_directory_user_idx').on(t.userId), index('client_directory_accountant_idx').on(t.assignedAccountantId)],
);

/** What the practice records per client (the tax-profile form). */
export const taxProfiles = deadlinesSchema.table(
  'tax_profiles',
  {
    clientId: text('client_id').primaryKey(),
    profile: jsonb('profile').$type<TaxProfileInput>().notNull(),
    /** Normalised, kept beside the profile so the daily refresh finds linked clients by index. */
    companyNumber: text('company_number'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text('updated_by'),
    updatedByName: text('updated_by_name'),
  },
  (t) => [
    index('tax_profiles_company_number_idx')
      .on(t.companyNumber)
      .where(sql`${t.companyNumber} is not null`),
  ],
);

/** The last answer of Companies House for a linked client (profile, officers, PSCs), or why it failed. */
export const companyCache = deadlinesSchema.table('company_cache', {
  clientId: text('client_id').primaryKey(),
  companyNumber: text('company_number').notNull(),
  snapshot: jsonb('snapshot').$type<CompanySnapshot>(),
  error: text('error'),
  refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every statutory deadline of every client, kept current by the engine. */
export const deadlines = deadlinesSchema.table(
  'deadlines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    /** The client's accountant, copied from the directory (kept in step by its consumer) so the assignee filter and an accountant's list read one index. */
    assignedAccountantId: text('assigned_accountant_id'),
    /** The engine's stable key of the obligation (kind, period end, taxpayer). */
    key: text('key').notNull(),
    kind: text('kind').notNull(),
    period: text('period').notNull(),
    periodEnd: date('period_end', { mode: 'string' }),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    source: text('source').notNull(),
    doneAt: timestamp('done_at', { withTimezone: true }),
    doneBy: text('done_by'),
    doneByName: text('done_by_name'),
    /** The filing record of a done deadline (issue 26): the day it was filed and its reference. */
    filedOn: date('filed_on', { mode: 'string' }),
    reference: text('reference'),
    /** Filed by the client's previous accountant, before the practice's engagement started. */
    filedByPreviousAgent: boolean('filed_by_previous_agent').notNull().default(false),
    /** When the daily job asked crm for a task (once per deadline and due date). */
    taskRequestedFor: date('task_requested_for', { mode: 'string' }),
    /** When the daily job announced it overdue (once). */
    overdueAnnouncedAt: timestamp('overdue_announced_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('deadlines_client_key_idx').on(t.clientId, t.key),
    // The practice list: open deadlines by due date (and paging ties on id).
    index('deadlines_open_due_idx')
      .on(t.dueOn, t.id)
      .where(sql`${t.doneAt} is null`),
    index('deadlines_open_kind_due_idx')
      .on(t.kind, t.dueOn, t.id)
      .where(sql`${t.doneAt} is null`),
    index('deadlines_open_accountant_due_idx')
      .on(t.assignedAccountantId, t.dueOn, t.id)
      .where(sql`${t.doneAt} is null`),
    index('deadlines_client_due_idx').on(t.clientId, t.dueOn),
    // The Done filter: most recently done first.
    index('deadlines_done_at_idx')
      .on(t.doneAt, t.id)
      .where(sql`${t.doneAt} is not null`),
    check('deadlines_source_check', sql`${t.source} in ('companies_house', 'rule')`),
  ],
);

/** What moved: a deadline's date changed by a Companies House refresh or a profile edit. */
export const deadlineChanges = deadlinesSchema.table(
  'deadline_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deadlineId: uuid('deadline_id').notNull(),
    clientId: text('client_id').notNull(),
    kind: text('kind').notNull(),
    period: text('period').notNull(),
    fromDue: date('from_due', { mode: 'string' }).notNull(),
    toDue: date('to_due', { mode: 'string' }).notNull(),
    reason: text('reason').notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('deadline_changes_client_idx').on(t.clientId, t.changedAt)],
);

/** A member of staff's private calendar feed: only the SHA-256 of the secret token is kept. */
export const calendarTokens = deadlinesSchema.table(
  'calendar_tokens',
  {
    principalId: text('principal_id').primaryKey(),
    principalKind: text('principal_kind').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('calendar_tokens_hash_idx').on(t.tokenHash)],
);

/** The practice's deadline settings: one row (id 1). */
export const deadlineSettings = deadlinesSchema.table(
  'settings',
  {
    id: smallint('id').primaryKey().default(1),
    taskLeadDays: integer('task_lead_days').notNull().default(30),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('settings_single_row', sql`${t.id} = 1`), check('settings_lead_days', sql`${t.taskLeadDays} between 1 and 365`)],
);
