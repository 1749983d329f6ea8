import { Type } from '@sinclair/typebox';
import { CompanyOfficerSchema, CompanyPscSchema, DeadlineKindSchema } from './deadlines.js';

const Nullable = <T extends import('@sinclair/typebox').TSchema>(s: T) => Type.Union([s, Type.Null()]);
// Patterns, not formats: consumers check events with TypeBox's Value, which knows no formats.
const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/**
 * Ask crm to open a task ahead of a deadline. idempotencyKey is stable per deadline and due date
 * (`deadline:<id>:<due_on>`): crm opens at most one task per key however often it arrives.
 */
export const DeadlineTaskRequestedSchema = Type.Object({
  idempotencyKey: Type.String({ minLength: 1, maxLength: 200 }),
  deadlineId: Type.String(),
  clientId: Type.String(),
  kind: DeadlineKindSchema,
  title: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 5000 }),
  dueOn: IsoDate,
  assigneeId: Nullable(Type.String()),
});

export const DeadlineDoneSchema = Type.Object({
  deadlineId: Type.String(),
  clientId: Type.String(),
  kind: DeadlineKindSchema,
  period: Type.String(),
  dueOn: IsoDate,
  doneAt: Type.String({ minLength: 20 }),
  doneByName: Type.String(),
  /** Issue 26: the filing record (absent on events from before it). */
  filedOn: Type.Optional(IsoDate),
  reference: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  filedByPreviousAgent: Type.Optional(Type.Boolean()),
});

/** A done deadline was reopened (undo): it counts as open again. */
export const DeadlineReopenedSchema = Type.Object({
  deadlineId: Type.String(),
  clientId: Type.String(),
  kind: DeadlineKindSchema,
  period: Type.String(),
  dueOn: IsoDate,
  reopenedByName: Type.String(),
});

/** A deadline passed and not done: notifications raises one notification per deadline. */
export const DeadlineOverdueSchema = Type.Object({
  deadlineId: Type.String(),
  clientId: Type.String(),
  clientName: Type.String(),
  kind: DeadlineKindSchema,
  period: Type.String(),
  dueOn: IsoDate,
  assigneeId: Nullable(Type.String()),
});

/** Companies House was read for a linked client; officers and PSCs for the AML due diligence to prefill from. */
export const CompanyRefreshedSchema = Type.Object({
  clientId: Type.String(),
  companyNumber: Type.String(),
  companyName: Type.String(),
  companyStatus: Type.String(),
  officers: Type.Array(CompanyOfficerSchema),
  pscs: Type.Array(CompanyPscSchema),
  /** Deadlines whose date moved, with the old and new date. */
  changes: Type.Array(Type.Object({ kind: DeadlineKindSchema, period: Type.String(), from: IsoDate, to: IsoDate })),
});

/**
 * A director or PSC of a client must verify their identity with Companies House (ECCTA 2023): one
 * e-mail to the client's contact per person and due date, sent by identity's mail path.
 */
export const IdentityReminderSchema = Type.Object({
  clientId: Type.String(),
  personKey: Type.String(),
  dueOn: IsoDate,
  to: Type.String({ minLength: 3, maxLength: 320 }),
  subject: Type.String({ minLength: 1, maxLength: 200 }),
  text: Type.String({ minLength: 1, maxLength: 5000 }),
});

/**
 * A client's deadlines after a change (added, moved or removed): the whole current list, so a consumer
 * (requests, to open record requests ahead of them) replaces its copy for the client.
 */
export const ClientDeadlinesChangedSchema = Type.Object({
  clientId: Type.String(),
  deadlines: Type.Array(
    Type.Object({ deadlineId: Type.String(), kind: DeadlineKindSchema, period: Type.String(), dueOn: IsoDate, done: Type.Boolean() }),
  ),
});

/** A member of staff's calendar feed was made (or replaced) or removed: for identity's "still reach" view. */
export const CalendarFeedChangedSchema = Type.Object({
  principalId: Type.String(),
  active: Type.Boolean(),
  /** When the current address was made (ISO), null when removed. */
  since: Nullable(Type.String()),
});

/** Client jobs (issue 29): a job was opened (from a deadline by the daily run, or by hand). */
export const JobOpenedSchema = Type.Object({
  jobId: Type.String(),
  clientId: Type.String(),
  kind: Type.String(),
  title: Type.String(),
  dueOn: IsoDate,
  deadlineId: Nullable(Type.String()),
  assigneeId: Nullable(Type.String()),
});
/** A job moved from one stage to another (reviewerId set when it entered Review). */
export const JobStageMovedSchema = Type.Object({
  jobId: Type.String(),
  clientId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  reviewerId: Nullable(Type.String()),
  byName: Type.String(),
});
/** A job was filed: its deadline (if any) was marked done in the same transaction. */
export const JobFiledSchema = Type.Object({
  jobId: Type.String(),
  clientId: Type.String(),
  kind: Type.String(),
  deadlineId: Nullable(Type.String()),
  filedOn: IsoDate,
  reference: Nullable(Type.String()),
  byName: Type.String(),
});
/** Time recorded on a job (minutes), by hand or by a timer. */
export const TimeRecordedSchema = Type.Object({
  entryId: Type.String(),
  jobId: Type.String(),
  clientId: Type.String(),
  userId: Type.String(),
  minutes: Type.Integer({ minimum: 1 }),
  workedOn: IsoDate,
});

export const DEADLINES_EVENTS = {
  'deadlines.task_requested': DeadlineTaskRequestedSchema,
  'deadlines.deadline_done': DeadlineDoneSchema,
  'deadlines.deadline_reopened': DeadlineReopenedSchema,
  'deadlines.deadline_overdue': DeadlineOverdueSchema,
  'deadlines.company_refreshed': CompanyRefreshedSchema,
  'deadlines.identity_reminder': IdentityReminderSchema,
  'deadlines.client_deadlines': ClientDeadlinesChangedSchema,
  'deadlines.calendar_feed_changed': CalendarFeedChangedSchema,
  'deadlines.job_opened': JobOpenedSchema,
  'deadlines.job_stage_moved': JobStageMovedSchema,
  'deadlines.job_filed': JobFiledSchema,
  'deadlines.time_recorded': TimeRecordedSchema,
} as const;
