import { Type, type Static } from '@sinclair/typebox';
import { literals, Nullable } from '../crm/common.js';
import type { DeadlineKind } from './deadlines.js';

// Contracts of client jobs (issue 29): the practice's work from every deadline, in pipelines, with time,
// capacity and profitability. Served by the deadlines service under /api/deadlines/jobs (decision 400).
// Browser-safe.

// a real calendar day (ajv-formats' full 'date': 2026-02-30 and 8637-88-16 are a 400 at the edge, not a 500 from PostgreSQL)
const IsoDate = Type.String({ format: 'date' });
const IsoMonth = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$' });
const Id = Type.String({ minLength: 1, maxLength: 64 });

export const CLIENT_JOBS_ROUTES = {
  /** GET: the jobs list (filters, paged). */
  list: '/api/deadlines/jobs',
  /** GET: the board: one column per stage of a kind's pipeline. */
  board: '/api/deadlines/jobs/board',
  job: (id: string) => `/api/deadlines/jobs/${id}`,
  move: (id: string) => `/api/deadlines/jobs/${id}/move`,
  checklist: (id: string) => `/api/deadlines/jobs/${id}/checklist`,
  notes: (id: string) => `/api/deadlines/jobs/${id}/notes`,
  time: (id: string) => `/api/deadlines/jobs/${id}/time`,
  timerStart: (id: string) => `/api/deadlines/jobs/${id}/timer`,
  /** GET: my running timer; DELETE: stop it (the minutes become a time entry). */
  timer: '/api/deadlines/jobs/timer',
  templates: '/api/deadlines/jobs/templates',
  template: (kind: string) => `/api/deadlines/jobs/templates/${kind}`,
  staff: '/api/deadlines/jobs/staff',
  staffMember: (userId: string) => `/api/deadlines/jobs/staff/${userId}`,
  capacity: '/api/deadlines/jobs/capacity',
  profitability: '/api/deadlines/jobs/profitability',
  profitabilityCsv: '/api/deadlines/jobs/profitability.csv',
  /** GET: reports of delivery (managers). */
  delivery: '/api/deadlines/jobs/delivery',
  /** GET: a client's recurring schedules; PUT .../:kind: set one (monthly day, on or off). */
  schedules: (clientId: string) => `/api/deadlines/jobs/schedules/${clientId}`,
  schedule: (clientId: string, kind: string) => `/api/deadlines/jobs/schedules/${clientId}/${kind}`,
} as const;

export const JOB_KINDS = [
  { value: 'year_end_accounts', label: 'Year-end accounts' },
  { value: 'corporation_tax_return', label: 'Corporation Tax return' },
  { value: 'vat_return', label: 'VAT return' },
  { value: 'self_assessment', label: 'Self Assessment' },
  { value: 'payroll_run', label: 'Payroll run' },
  { value: 'confirmation_statement', label: 'Confirmation statement' },
  { value: 'mtd_quarterly_update', label: 'MTD quarterly update' },
  { value: 'bookkeeping', label: 'Bookkeeping' },
  { value: 'ad_hoc', label: 'Ad hoc' },
] as const;
export type JobKind = (typeof JOB_KINDS)[number]['value'];
export const JOB_KIND_VALUES: JobKind[] = JOB_KINDS.map((k) => k.value);
export const JobKindSchema = literals(JOB_KIND_VALUES);
export const jobKindLabel = (k: string) => JOB_KINDS.find((x) => x.value === k)?.label ?? k;

/** Which statutory deadline opens which job (the others, payments and the like, open none). */
export const JOB_KIND_OF_DEADLINE: Partial<Record<DeadlineKind, JobKind>> = {
  accounts: 'year_end_accounts',
  ct600: 'corporation_tax_return',
  vat_return: 'vat_return',
  sa_online_return: 'self_assessment',
  paye_fps: 'payroll_run',
  confirmation_statement: 'confirmation_statement',
  mtd_quarterly_update: 'mtd_quarterly_update',
};

export const REVIEWER_ROLES = ['manager', 'staff', 'accountant', 'admin'] as const;
export const ReviewerRoleSchema = literals(REVIEWER_ROLES);

export const JobStageSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 60 }),
  checklist: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 30 }),
});
export type JobStage = Static<typeof JobStageSchema>;

export const JobTemplateInputSchema = Type.Object({
  stages: Type.Array(JobStageSchema, { minItems: 2, maxItems: 12 }),
  budget_minutes: Type.Integer({ minimum: 0, maximum: 100_000 }),
  reviewer_role: ReviewerRoleSchema,
  /** Days before the statutory date the job is opened. */
  lead_days: Type.Integer({ minimum: 1, maximum: 365 }),
  /** The internal target: this many days before the statutory date. */
  target_days_before: Type.Integer({ minimum: 0, maximum: 120 }),
});
export type JobTemplateInput = Static<typeof JobTemplateInputSchema>;
export const JobTemplateSchema = Type.Object({
  kind: JobKindSchema,
  name: Type.String(),
  ...JobTemplateInputSchema.properties,
  customised: Type.Boolean(),
});
export type JobTemplate = Static<typeof JobTemplateSchema>;
export const JobTemplateListSchema = Type.Object({ templates: Type.Array(JobTemplateSchema) });

export const JOB_STATUSES = ['open', 'filed'] as const;
export const JobStatusSchema = literals(JOB_STATUSES);
/** The stage that assigns the reviewer, and the last stage (filing it closes the job). */
export const REVIEW_STAGE = 'Review';
export const FILED_STAGE = 'Filed';

export const ChecklistItemSchema = Type.Object({
  stage: Type.String(),
  item: Type.String(),
  done: Type.Boolean(),
  done_by_name: Nullable(Type.String()),
});

export const JobSummarySchema = Type.Object({
  id: Type.String(),
  client_id: Type.String(),
  client_name: Type.String(),
  kind: JobKindSchema,
  title: Type.String(),
  period: Nullable(Type.String()),
  stage: Type.String(),
  stage_index: Type.Integer(),
  status: JobStatusSchema,
  due_on: IsoDate,
  statutory_due_on: Nullable(IsoDate),
  assignee_id: Nullable(Type.String()),
  assignee_name: Nullable(Type.String()),
  reviewer_id: Nullable(Type.String()),
  reviewer_name: Nullable(Type.String()),
  budget_minutes: Type.Integer(),
  used_minutes: Type.Integer(),
  /** Marked waiting by hand, or a client request for its deadline is open. */
  waiting_on_client: Type.Boolean(),
  /** The open client request it waits on (its title), if any. */
  waiting_request: Nullable(Type.String()),
  overdue: Type.Boolean(),
  deadline_id: Nullable(Type.String()),
});
export type JobSummary = Static<typeof JobSummarySchema>;

export const JobListQuerySchema = Type.Object({
  kind: Type.Optional(JobKindSchema),
  stage: Type.Optional(Type.String({ maxLength: 60 })),
  assignee_id: Type.Optional(Id),
  /** 'me': the caller's jobs (My work). */
  mine: Type.Optional(Type.Boolean()),
  client_id: Type.Optional(Id),
  due_from: Type.Optional(IsoDate),
  due_to: Type.Optional(IsoDate),
  overdue: Type.Optional(Type.Boolean()),
  waiting_on_client: Type.Optional(Type.Boolean()),
  status: Type.Optional(Type.Union([JobStatusSchema, Type.Literal('all')])),
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
  page_size: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
});
export type JobListQuery = Static<typeof JobListQuerySchema>;
export const JobListSchema = Type.Object({
  jobs: Type.Array(JobSummarySchema),
  total: Type.Integer(),
  /** More jobs match than were counted (total is the cap, 10,000). */
  total_capped: Type.Boolean(),
  page: Type.Integer(),
  page_size: Type.Integer(),
  today: IsoDate,
});
export type JobList = Static<typeof JobListSchema>;

export const JobBoardQuerySchema = Type.Object({
  kind: JobKindSchema,
  assignee_id: Type.Optional(Id),
  mine: Type.Optional(Type.Boolean()),
});
export type JobBoardQuery = Static<typeof JobBoardQuerySchema>;
export const JobBoardSchema = Type.Object({
  kind: JobKindSchema,
  columns: Type.Array(Type.Object({ stage: Type.String(), total: Type.Integer(), jobs: Type.Array(JobSummarySchema) })),
  today: IsoDate,
});
export type JobBoard = Static<typeof JobBoardSchema>;

export const TimeEntrySchema = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  user_name: Type.String(),
  minutes: Type.Integer(),
  worked_on: IsoDate,
  note: Nullable(Type.String()),
  source: literals(['manual', 'timer'] as const),
});
export type TimeEntry = Static<typeof TimeEntrySchema>;

export const JobNoteSchema = Type.Object({ id: Type.String(), text: Type.String(), by_name: Type.String(), at: Type.String() });

export const JobDetailSchema = Type.Object({
  job: JobSummarySchema,
  stages: Type.Array(Type.String()),
  checklist: Type.Array(ChecklistItemSchema),
  notes: Type.Array(JobNoteSchema),
  time: Type.Array(TimeEntrySchema),
  deadline: Nullable(
    Type.Object({
      id: Type.String(),
      kind: Type.String(),
      period: Type.String(),
      due_on: IsoDate,
      done: Type.Boolean(),
      reference: Nullable(Type.String()),
    }),
  ),
  filed_on: Nullable(IsoDate),
  reference: Nullable(Type.String()),
  today: IsoDate,
});
export type JobDetail = Static<typeof JobDetailSchema>;

export const JobMoveInputSchema = Type.Object({
  stage: Type.String({ minLength: 1, maxLength: 60 }),
  /** Filing: the reference of the filing (required for a job linked to a deadline) and the day it was filed. */
  reference: Type.Optional(Type.String({ maxLength: 100 })),
  filed_on: Type.Optional(IsoDate),
  reviewer_id: Type.Optional(Id),
});
export type JobMoveInput = Static<typeof JobMoveInputSchema>;

export const JobPatchSchema = Type.Object({
  assignee_id: Type.Optional(Nullable(Id)),
  waiting_on_client: Type.Optional(Type.Boolean()),
  due_on: Type.Optional(IsoDate),
});
export type JobPatch = Static<typeof JobPatchSchema>;

export const ChecklistTickSchema = Type.Object({ index: Type.Integer({ minimum: 0, maximum: 500 }), done: Type.Boolean() });
export const JobNoteInputSchema = Type.Object({ text: Type.String({ minLength: 1, maxLength: 5000 }) });
export const TimeEntryInputSchema = Type.Object({
  minutes: Type.Integer({ minimum: 1, maximum: 24 * 60 }),
  worked_on: IsoDate,
  note: Type.Optional(Type.String({ maxLength: 500 })),
});
export type TimeEntryInput = Static<typeof TimeEntryInputSchema>;
export const TimerSchema = Type.Object({
  timer: Nullable(Type.Object({ job_id: Type.String(), started_at: Type.String(), title: Type.String() })),
});
export const TimerStopSchema = Type.Object({ entry: Nullable(TimeEntrySchema) });

export const JobStaffMemberSchema = Type.Object({
  user_id: Type.String(),
  name: Type.String(),
  role: Nullable(Type.String()),
  active: Type.Boolean(),
  cost_rate_pence: Type.Integer(),
  weekly_capacity_minutes: Type.Integer(),
  leave: Type.Array(IsoDate),
});
export type JobStaffMember = Static<typeof JobStaffMemberSchema>;
export const JobStaffListSchema = Type.Object({ staff: Type.Array(JobStaffMemberSchema) });
export const JobStaffPatchSchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  cost_rate_pence: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  weekly_capacity_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 * 60 })),
  /** The member's leave, whole days (replaces the list from today on). */
  leave: Type.Optional(Type.Array(IsoDate, { maxItems: 400 })),
});
export type JobStaffPatch = Static<typeof JobStaffPatchSchema>;

export const CapacityQuerySchema = Type.Object({
  /** Any day of the first week (Monday-start); default this week. */
  from: Type.Optional(IsoDate),
  weeks: Type.Integer({ minimum: 1, maximum: 26, default: 12 }),
  user_id: Type.Optional(Id),
});
export type CapacityQuery = Static<typeof CapacityQuerySchema>;
export const CapacityWeekSchema = Type.Object({
  week_start: IsoDate,
  budgeted_minutes: Type.Integer(),
  available_minutes: Type.Integer(),
  leave_days: Type.Integer(),
  jobs: Type.Integer(),
  over_allocated: Type.Boolean(),
});
export type CapacityWeek = Static<typeof CapacityWeekSchema>;
export const CapacityReplySchema = Type.Object({
  weeks: Type.Array(IsoDate),
  people: Type.Array(Type.Object({ user_id: Type.String(), name: Type.String(), weeks: Type.Array(CapacityWeekSchema) })),
  team: Type.Array(CapacityWeekSchema),
});
export type CapacityReply = Static<typeof CapacityReplySchema>;

export const ProfitabilityQuerySchema = Type.Object({ month: IsoMonth });
export const ProfitabilityRowSchema = Type.Object({
  client_id: Type.String(),
  client_name: Type.String(),
  package_name: Nullable(Type.String()),
  fee_pence: Type.Integer(),
  minutes: Type.Integer(),
  cost_pence: Type.Integer(),
  margin_pence: Type.Integer(),
  /** Fee per hour worked, in pence; null when no time was recorded. */
  effective_rate_pence: Nullable(Type.Integer()),
});
export type ProfitabilityRow = Static<typeof ProfitabilityRowSchema>;
export const ProfitabilityReplySchema = Type.Object({
  month: IsoMonth,
  clients: Type.Array(ProfitabilityRowSchema),
  packages: Type.Array(Type.Omit(ProfitabilityRowSchema, ['client_id', 'client_name'])),
});
export type ProfitabilityReply = Static<typeof ProfitabilityReplySchema>;

/** Reports of delivery: deadlines met on time vs late per month, jobs by stage, days per stage, work in progress. */
export const DeliveryQuerySchema = Type.Object({ from: IsoMonth, to: IsoMonth });
export const DeliveryReplySchema = Type.Object({
  months: Type.Array(Type.Object({ month: IsoMonth, on_time: Type.Integer(), late: Type.Integer(), open_overdue: Type.Integer() })),
  by_stage: Type.Array(Type.Object({ kind: JobKindSchema, stage: Type.String(), jobs: Type.Integer() })),
  days_per_stage: Type.Array(Type.Object({ stage: Type.String(), average_days: Type.Number(), moves: Type.Integer() })),
  work_in_progress: Type.Array(
    Type.Object({
      user_id: Nullable(Type.String()),
      name: Type.String(),
      jobs: Type.Integer(),
      budget_minutes: Type.Integer(),
      used_minutes: Type.Integer(),
      overdue: Type.Integer(),
    }),
  ),
});
export type DeliveryReply = Static<typeof DeliveryReplySchema>;

/** Recurring work without a statutory deadline: monthly, on a day 1 to 28. */
export const RECURRING_JOB_KINDS = ['bookkeeping', 'payroll_run'] as const;
export const JobScheduleInputSchema = Type.Object({
  day_of_month: Type.Integer({ minimum: 1, maximum: 28 }),
  active: Type.Boolean(),
});
export type JobScheduleInput = Static<typeof JobScheduleInputSchema>;
export const JobScheduleSchema = Type.Object({
  client_id: Type.String(),
  kind: literals(RECURRING_JOB_KINDS),
  day_of_month: Type.Integer(),
  active: Type.Boolean(),
  /** The next occurrence on or after today. */
  next_due_on: IsoDate,
});
export type JobSchedule = Static<typeof JobScheduleSchema>;
export const JobScheduleListSchema = Type.Object({ schedules: Type.Array(JobScheduleSchema) });
export type JobScheduleList = Static<typeof JobScheduleListSchema>;

export const CLIENT_JOBS_MESSAGES = {
  clientNotFound: 'Client not found',
  jobNotFound: 'Job not found',
  notYourClient: 'This client is not assigned to you',
  unknownStage: 'This job has no such stage',
  referenceRequired: 'Enter the filing reference to move the job to Filed',
  alreadyFiled: 'This job is already filed',
  noTimer: 'No timer is running',
  timerRunning: 'A timer is already running: stop it first',
  templateSaved: 'Template saved',
  lastStageFiled: 'The last stage of a pipeline must be Filed',
  checklistItemNotFound: 'No such checklist item',
  staffNotFound: 'Not a member of staff',
} as const;
