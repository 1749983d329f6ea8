import { clientDirectoryTable, outboxTables } from '@countinghouse/kit';
import type {
  CompanySnapshot,
  DeadlineKind,
  IdentityPerson,
  IdentityVerificationDetails,
  JobStage,
  TaxProfileInput,
} from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import type { IdvRule } from '../domain/identity-verification.js';
import type { MtdObligationFact } from '../domain/mtd-obligations.js';
import {
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const SCHEMA = 'deadlines';
export const deadlinesSchema = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(deadlinesSchema);

/**
 * A read model of crm's clients (crm.client_upserted; the kit's client directory): names, owner,
 * accountant, status, business type, contact, package and fee.
 */
export const clientDirectory = clientDirectoryTable(deadlinesSchema, {
  indexPrefix: 'client_directory_',
  columns: {
    businessType: text('business_type'),
    subscriptionStatus: text('subscription_status').notNull(),
    /** The client's contact (crm), who is reminded of their people's identity verification. */
    contactName: text('contact_name'),
    contactEmail: text('contact_email'),
    /** The client's package and monthly fee in pence (crm.client_upserted): the profitability report's fee. */
    packageName: text('package_name'),
    monthlyFeePence: integer('monthly_fee_pence'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
});

/**
 * The client's package, fee and status over time (issue 29's profitability per month): one row each time
 * crm.client_upserted changes them, from the event's time. The first row a client gets holds from the
 * beginning ('-infinity'): before it the platform knew no other fee (decision 661).
 */
export const clientFees = deadlinesSchema.table(
  'client_fees',
  {
    clientId: text('client_id').notNull(),
    effectiveAt: timestamp('effective_at', { withTimezone: true }).notNull(),
    packageName: text('package_name'),
    monthlyFeePence: integer('monthly_fee_pence'),
    subscriptionStatus: text('subscription_status').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.effectiveAt] })],
);

/** What the practice records per client (the tax-profile form). */
/**
 * A company number a new client gave at sign-up (billing.subscription_activated carries it), held until
 * crm's client record for that person reaches the directory; then it becomes the tax profile's company
 * number, unless staff have already set one (issue 33, decision 665).
 */
export const signupCompanies = deadlinesSchema.table('signup_companies', {
  userId: text('user_id').primaryKey(),
  companyNumber: text('company_number').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

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
    kind: text('kind').$type<DeadlineKind>().notNull(),
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
    check('deadlines_source_check', sql`${t.source} in ('companies_house', 'rule', 'hmrc')`),
  ],
);

/** What moved: a deadline's date changed by a Companies House refresh or a profile edit. */
export const deadlineChanges = deadlinesSchema.table(
  'deadline_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deadlineId: uuid('deadline_id').notNull(),
    clientId: text('client_id').notNull(),
    kind: text('kind').$type<DeadlineKind>().notNull(),
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

/**
 * Each director's and PSC's identity verification with Companies House, per person per company, rewritten
 * from each refresh (and from the practice's own ACSP verifications, aml.identity_verification_recorded).
 * due_on is Companies House's date or the rule's (domain/identity-verification.ts); status follows from
 * verified_on and due_on on the day asked.
 */
export const identityPeople = deadlinesSchema.table(
  'identity_people',
  {
    clientId: text('client_id').notNull(),
    /** The AML file's person key: officer:<role>:<name> or psc:<name>. */
    personKey: text('person_key').notNull(),
    /** Companies House's order (officers, then PSCs). */
    position: integer('position').notNull(),
    name: text('name').notNull(),
    personKind: text('person_kind').$type<IdentityPerson['person_kind']>().notNull(),
    startedOn: date('started_on', { mode: 'string' }),
    details: jsonb('details').$type<IdentityVerificationDetails>(),
    verifiedOn: date('verified_on', { mode: 'string' }),
    verifiedBy: text('verified_by'),
    /** 'companies_house' or 'practice' when verified. */
    verifiedSource: text('verified_source').$type<NonNullable<IdentityPerson['verified_source']>>(),
    dueOn: date('due_on', { mode: 'string' }),
    dueSource: text('due_source').$type<NonNullable<IdentityPerson['due_source']>>(),
    dueRule: text('due_rule').$type<IdvRule>(),
    /** The client's accountant, copied from the directory like deadlines.assigned_accountant_id. */
    assignedAccountantId: text('assigned_accountant_id'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.personKey] }),
    // The view's filters: not verified by due date (overdue, due in 30 days), unknown, by accountant.
    index('identity_people_open_due_idx')
      .on(t.dueOn, t.clientId, t.position)
      .where(sql`${t.verifiedOn} is null`),
    index('identity_people_accountant_due_idx').on(t.assignedAccountantId, t.dueOn, t.clientId, t.position),
    index('identity_people_all_idx').on(t.dueOn, t.clientId, t.position),
    check('identity_people_kind_check', sql`${t.personKind} in ('director', 'psc', 'relevant_legal_entity')`),
  ],
);

/** The practice's own ACSP verifications of a client's people, as aml announced them (aml keeps the record). */
export const identityPracticeVerifications = deadlinesSchema.table(
  'identity_practice_verifications',
  {
    clientId: text('client_id').notNull(),
    personKey: text('person_key').notNull(),
    verifiedOn: date('verified_on', { mode: 'string' }).notNull(),
    byName: text('by_name').notNull(),
    /** Null while in force; set when aml withdrew it (deleted after retention). */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.personKey] })],
);

/** Reminders sent to a client's contact: one per person per due date (a moved date is reminded again). */
export const identityReminders = deadlinesSchema.table(
  'identity_reminders',
  {
    clientId: text('client_id').notNull(),
    personKey: text('person_key').notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.personKey, t.dueOn] })],
);

// ---------------------------------------------------------------------------------------------------
// Client jobs (issue 29, decision 400): the work of each deadline in a pipeline of stages, with time.

/** A kind's template as the practice edited it (absent: proto's defaults, domain/job-templates.ts). */
export const jobTemplates = deadlinesSchema.table('job_templates', {
  kind: text('kind').primaryKey(),
  stages: jsonb('stages').$type<JobStage[]>().notNull(),
  budgetMinutes: integer('budget_minutes').notNull(),
  reviewerRole: text('reviewer_role').notNull(),
  leadDays: integer('lead_days').notNull(),
  targetDaysBefore: integer('target_days_before').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text('updated_by'),
});

export interface JobChecklistItem {
  stage: string;
  item: string;
  done: boolean;
  doneBy: string | null;
  doneByName: string | null;
}

export const jobs = deadlinesSchema.table(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    /** The deadline the job was opened from: at most one job per deadline (the daily run's idempotency). */
    deadlineId: uuid('deadline_id'),
    /** A recurring job's occurrence (client:kind:due date): at most one job per occurrence. */
    recurringKey: text('recurring_key'),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    period: text('period'),
    /** The template's stages when the job was opened (a later template edit leaves open jobs alone). */
    stages: jsonb('stages').$type<string[]>().notNull(),
    stageIndex: integer('stage_index').notNull().default(0),
    stage: text('stage').notNull(),
    status: text('status').notNull().default('open'),
    checklist: jsonb('checklist').$type<JobChecklistItem[]>().notNull(),
    statutoryDueOn: date('statutory_due_on', { mode: 'string' }),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    assigneeId: text('assignee_id'),
    reviewerId: text('reviewer_id'),
    reviewerRole: text('reviewer_role').notNull(),
    budgetMinutes: integer('budget_minutes').notNull(),
    usedMinutes: integer('used_minutes').notNull().default(0),
    waitingOnClient: boolean('waiting_on_client').notNull().default(false),
    /** Client requests open for the job's deadline (job_requests, kept by requests' events): the job waits on the client while > 0. */
    openRequests: integer('open_requests').notNull().default(0),
    filedOn: date('filed_on', { mode: 'string' }),
    reference: text('reference'),
    stageEnteredAt: timestamp('stage_entered_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('jobs_deadline_idx')
      .on(t.deadlineId)
      .where(sql`${t.deadlineId} is not null`),
    uniqueIndex('jobs_recurring_idx')
      .on(t.recurringKey)
      .where(sql`${t.recurringKey} is not null`),
    // The board and the list: open jobs of a kind by stage and due date; an assignee's by due date.
    index('jobs_open_kind_stage_due_idx')
      .on(t.kind, t.stage, t.dueOn, t.id)
      .where(sql`${t.status} = 'open'`),
    index('jobs_open_due_idx')
      .on(t.dueOn, t.id)
      .where(sql`${t.status} = 'open'`),
    // An assignee's board: without it the board of one kind for one person read every open job of the kind.
    index('jobs_open_assignee_kind_stage_due_idx')
      .on(t.assigneeId, t.kind, t.stage, t.dueOn, t.id)
      .where(sql`${t.status} = 'open'`),
    // "Waiting on the client": the few open jobs flagged by hand or with a client request open, by due date.
    index('jobs_open_waiting_due_idx')
      .on(t.dueOn, t.id)
      .where(sql`${t.status} = 'open' and (${t.waitingOnClient} or ${t.openRequests} > 0)`),
    index('jobs_assignee_due_idx').on(t.assigneeId, t.dueOn, t.id),
    index('jobs_client_idx').on(t.clientId, t.dueOn),
    check('jobs_status_check', sql`${t.status} in ('open', 'filed')`),
  ],
);

/** Each stage a job entered: append-only (the average days per stage, who moved it). */
export const jobStageHistory = deadlinesSchema.table(
  'job_stage_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    jobId: uuid('job_id').notNull(),
    stage: text('stage').notNull(),
    enteredAt: timestamp('entered_at', { withTimezone: true }).notNull().defaultNow(),
    byId: text('by_id'),
    byName: text('by_name').notNull(),
  },
  (t) => [index('job_stage_history_job_idx').on(t.jobId, t.enteredAt)],
);

/** Notes on a job: append-only. */
export const jobNotes = deadlinesSchema.table(
  'job_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: uuid('job_id').notNull(),
    text: text('text').notNull(),
    byId: text('by_id'),
    byName: text('by_name').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('job_notes_job_idx').on(t.jobId, t.at)],
);

/** Time recorded on a job, in minutes: append-only. */
export const timeEntries = deadlinesSchema.table(
  'time_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: uuid('job_id').notNull(),
    clientId: text('client_id').notNull(),
    userId: text('user_id').notNull(),
    userName: text('user_name').notNull(),
    minutes: integer('minutes').notNull(),
    workedOn: date('worked_on', { mode: 'string' }).notNull(),
    note: text('note'),
    source: text('source').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('time_entries_job_idx').on(t.jobId, t.workedOn),
    index('time_entries_worked_idx').on(t.workedOn, t.clientId),
    check('time_entries_minutes_check', sql`${t.minutes} > 0`),
    check('time_entries_source_check', sql`${t.source} in ('manual', 'timer')`),
  ],
);

/** Recurring work without a statutory deadline (bookkeeping, payroll): one schedule per client and kind, monthly. */
export const jobSchedules = deadlinesSchema.table(
  'job_schedules',
  {
    clientId: text('client_id').notNull(),
    kind: text('kind').notNull(),
    /** The day of each month the work is due (1 to 28, so every month has it). */
    dayOfMonth: smallint('day_of_month').notNull(),
    active: boolean('active').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text('updated_by'),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.kind] }),
    check('job_schedules_day_check', sql`${t.dayOfMonth} between 1 and 28`),
    check('job_schedules_kind_check', sql`${t.kind} in ('bookkeeping', 'payroll_run')`),
  ],
);

/** Client requests (requests.request_opened / request_completed) tied to a deadline: its job waits on the client while one is open. */
export const jobRequests = deadlinesSchema.table(
  'job_requests',
  {
    requestId: text('request_id').primaryKey(),
    clientId: text('client_id').notNull(),
    deadlineId: uuid('deadline_id').notNull(),
    title: text('title').notNull(),
    open: boolean('open').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('job_requests_open_deadline_idx')
      .on(t.deadlineId)
      .where(sql`${t.open}`),
  ],
);

/** One running timer per person. */
export const jobTimers = deadlinesSchema.table('job_timers', {
  userId: text('user_id').primaryKey(),
  userName: text('user_name').notNull(),
  jobId: uuid('job_id').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The practice's people as jobs know them, keyed by identity's user id: names and roles from
 * identity.role_changed, cost rate and weekly capacity set by a manager.
 */
export const jobStaff = deadlinesSchema.table(
  'job_staff',
  {
    userId: text('user_id').primaryKey(),
    name: text('name').notNull(),
    role: text('role'),
    active: boolean('active').notNull().default(true),
    costRatePence: integer('cost_rate_pence').notNull().default(0),
    weeklyCapacityMinutes: integer('weekly_capacity_minutes')
      .notNull()
      .default(37 * 60 + 30),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('job_staff_rate_check', sql`${t.costRatePence} >= 0 and ${t.weeklyCapacityMinutes} >= 0`)],
);

/** A day of leave of a member of staff. */
export const staffLeave = deadlinesSchema.table(
  'staff_leave',
  {
    userId: text('user_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/**
 * HMRC's Making Tax Digital for Income Tax obligations of a client, as the integrations service last read
 * them (integrations.mtd_obligations_updated, issue 31): the whole set per client, kept only when newer
 * than the one held. The engine takes HMRC's periods and due dates over its computed ones.
 */
export const mtdObligations = deadlinesSchema.table('mtd_obligations', {
  clientId: text('client_id').primaryKey(),
  refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull(),
  obligations: jsonb('obligations').$type<MtdObligationFact[]>().notNull(),
});
