import { Type, type Static } from '@sinclair/typebox';
import { hasPermission, type PermissionKey } from '../permissions.js';
import { CrmDate, CrmDateTime, CrmUuid, Nullable, literals } from '../crm/common.js';

// Contracts of the workspace (issue 26): the client record, its Timeline, My work, team tasks,
// deadlines done with a filing record, and the MLRO's "return with a reason". Browser-safe.
// docs/workspace-api.md lists every route, its shapes and who may call it.

// ---------------------------------------------------------------------------------------------------
// Who sees which clients: the one rule (decision 141). Services narrow their rows with it; the
// pages use it to decide what to offer.

/** Which clients a person may see: every client, only those assigned to them as accountant, or none. */
export type ClientVisibility = { all: true } | { all: false; accountantId: string } | null;

/**
 * Where an area's own view of clients differs from decision 141, the difference made explicit (the
 * services' kit passes these through its clientScopeOf). Every default is decision 141's.
 */
export interface ClientVisibilityRule {
  /**
   * The permissions any one of which shows every client. Default clients.edit (admin, manager, staff).
   * An area with its own "see all" row names it (documents.view_all, integrations.view_all); the AML
   * files name aml.manage (admin, manager, the MLRO: staff without AML access see none).
   */
  seeAll?: readonly PermissionKey[];
  /** Does the admin panel session see every client whatever roles its token carries? Default yes. */
  adminPanel?: boolean;
}

/**
 * Staff-side people with clients.view see clients: admin, manager and staff (and the admin panel
 * session) every client; an accountant only the clients assigned to them. A client and anyone else:
 * none here (a client's own business is the client portal's "mine" routes).
 */
export function clientVisibility(
  p: { id: string; roles: readonly string[]; kind?: string } | null,
  rule: ClientVisibilityRule = {},
): ClientVisibility {
  if (!p) return null;
  const roles = p.roles;
  const seeAll = rule.seeAll ?? ['clients.edit'];
  if ((rule.adminPanel !== false && p.kind === 'admin') || seeAll.some((key) => hasPermission(roles, key))) return { all: true };
  if (roles.includes('accountant') && hasPermission(roles, 'clients.view')) return { all: false, accountantId: p.id };
  return null;
}

/** May this visibility open the client assigned to `assignedAccountantId`? */
export function canSeeClient(v: ClientVisibility, assignedAccountantId: string | null): boolean {
  if (!v) return false;
  return v.all || assignedAccountantId === v.accountantId;
}

/** Where `/login` takes a person once signed in: staff-side people to My work, clients to their dashboard. */
export function homeFor(roles: readonly string[]): '/work' | '/dashboard' {
  const staffSide: readonly string[] = ['admin', 'manager', 'staff', 'accountant', 'mlro'];
  return roles.some((r) => staffSide.includes(r)) ? '/work' : '/dashboard';
}

export const WORKSPACE_MESSAGES = {
  notYourClient: 'This client is not assigned to you',
  clientNotFound: 'Client not found',
  identifiersSaved: 'Identifiers saved',
  noteAdded: 'Note added',
  taskCompleted: 'Task completed',
  taskReopened: 'Task reopened',
  taskNotFound: 'Task not found',
  notYourTask: 'This task is not yours or your clients’',
  everyoneNotAllowed: 'You can see only your own work',
  deadlineUndone: 'Deadline reopened',
  notDone: 'This deadline is not marked as done',
  previousAgentNeedsStart: 'Set the engagement start date on the tax profile before marking a deadline filed by the previous agent',
  previousAgentAfterStart: 'Only deadlines due before the engagement start date can be marked filed by the previous agent',
  filedInFuture: 'The filing date cannot be in the future',
  filedTooEarly: 'The filing date cannot be before 1 Jan 2000',
  amlReturned: 'Returned for changes',
  amlNotAwaiting: 'This file is not awaiting approval',
} as const;

// ---------------------------------------------------------------------------------------------------
// Routes

export const WORKSPACE_ROUTES = {
  /** GET: the client record (header, identifiers, counts, badges). */
  clientRecord: (clientId: string) => `/api/crm/clients/${clientId}/record`,
  /** PUT: the client's identifiers (each validated). */
  clientIdentifiers: (clientId: string) => `/api/crm/clients/${clientId}/identifiers`,
  /** GET: the client's Timeline, newest first (?before=<cursor>&limit=). */
  clientTimeline: (clientId: string) => `/api/crm/clients/${clientId}/timeline`,
  /** POST: a note on the client's Timeline. */
  clientNotes: (clientId: string) => `/api/crm/clients/${clientId}/notes`,
  /** GET (?who=mine|everyone): My work, each owning service its own items in one shape. */
  workTasks: '/api/crm/work',
  workDeadlines: '/api/deadlines/work',
  workAml: '/api/aml/work',
  workLetters: '/api/engagement/work',
  /** POST: complete / reopen a task (staff, managers; accountants for their clients or their own tasks). */
  taskComplete: (taskId: string) => `/api/crm/tasks/${taskId}/complete`,
  taskReopen: (taskId: string) => `/api/crm/tasks/${taskId}/reopen`,
  /** POST (body DeadlineDoneInput): mark done with the filing record; POST .../undo: reopen. */
  deadlineDone: (id: string) => `/api/deadlines/${id}/done`,
  deadlineUndo: (id: string) => `/api/deadlines/${id}/undo`,
  /** GET ?client_ids=a,b,c (up to 200): each client's next open deadline, overdue first (the clients list's column). */
  nextDeadlines: '/api/deadlines/next',
  /** POST (the MLRO): return the file awaiting approval to draft, with a reason. */
  amlReturn: (clientId: string) => `/api/aml/clients/${encodeURIComponent(clientId)}/return`,
} as const;

export const ClientIdParamsSchema = Type.Object({ id: CrmUuid });

// ---------------------------------------------------------------------------------------------------
// The client record

const Ident = (max: number) => Nullable(Type.String({ maxLength: max }));

/**
 * What a UK practice keeps about a client beside the tax profile. Company number and year end stay on
 * the deadlines service's tax profile (GET /api/deadlines/clients/:id), the one place they drive dates.
 */
export const ClientIdentifiersSchema = Type.Object({
  utr: Nullable(Type.String()),
  vat_number: Nullable(Type.String()),
  paye_reference: Nullable(Type.String()),
  accounts_office_reference: Nullable(Type.String()),
  /** For individuals (sole traders, partners). */
  nino: Nullable(Type.String()),
  registered_office: Nullable(Type.String()),
  sic_codes: Type.Array(Type.String()),
  updated_at: Nullable(CrmDateTime),
  updated_by_name: Nullable(Type.String()),
});
export type ClientIdentifiers = Static<typeof ClientIdentifiersSchema>;

/** PUT body: every field; null (or '') clears one. Each is validated (IDENTIFIER_MESSAGES on failure, 400 with details[].path). */
export const ClientIdentifiersInputSchema = Type.Object(
  {
    utr: Ident(20),
    vat_number: Ident(20),
    paye_reference: Ident(20),
    accounts_office_reference: Ident(20),
    nino: Ident(20),
    registered_office: Ident(500),
    sic_codes: Type.Array(Type.String({ maxLength: 10 }), { maxItems: 4 }),
  },
  { additionalProperties: false },
);
export type ClientIdentifiersInput = Static<typeof ClientIdentifiersInputSchema>;

export const DD_BADGES = ['outstanding', 'awaiting_approval', 'approved'] as const;
export const LETTER_BADGES = ['none', 'awaiting_signature', 'signed'] as const;

export const ClientBadgesSchema = Type.Object({
  /** 'outstanding' shows "Due diligence outstanding"; approved: the file in force. */
  due_diligence: literals(DD_BADGES),
  letter: literals(LETTER_BADGES),
  overdue_deadlines: Type.Integer({ minimum: 0 }),
});
export type ClientBadges = Static<typeof ClientBadgesSchema>;

export const ClientRecordSchema = Type.Object({
  client: Type.Object({
    id: CrmUuid,
    company_name: Type.String(),
    contact_name: Nullable(Type.String()),
    contact_email: Type.String(),
    contact_phone: Nullable(Type.String()),
    business_type: Type.String(),
    subscription_status: Type.String(),
    package_name: Nullable(Type.String()),
    monthly_fee: Type.Number(),
    assigned_accountant_id: Nullable(Type.String()),
    assigned_accountant_name: Nullable(Type.String()),
    registration_date: CrmDateTime,
  }),
  identifiers: ClientIdentifiersSchema,
  badges: ClientBadgesSchema,
  counts: Type.Object({ open_tasks: Type.Integer({ minimum: 0 }), timeline_entries: Type.Integer({ minimum: 0 }) }),
  /** What the caller may do on this record (the page hides what it may not). */
  can: Type.Object({ edit: Type.Boolean(), add_note: Type.Boolean() }),
});
export type ClientRecord = Static<typeof ClientRecordSchema>;

export const IdentifiersSaveReplySchema = Type.Object({ identifiers: ClientIdentifiersSchema, message: Type.String() });

// ---------------------------------------------------------------------------------------------------
// Timeline (a read model in crm, fed by the services' events)

export const TIMELINE_KINDS = [
  { value: 'client_created', label: 'Client created' },
  { value: 'signed_up', label: 'Signed up' },
  { value: 'payment', label: 'Payment' },
  { value: 'payment_failed', label: 'Payment failed' },
  { value: 'subscription_cancelled', label: 'Subscription cancelled' },
  { value: 'letter_sent', label: 'Engagement letter sent' },
  { value: 'letter_signed', label: 'Engagement letter signed' },
  { value: 'document_uploaded', label: 'Document uploaded' },
  { value: 'deadline_done', label: 'Deadline done' },
  { value: 'deadline_reopened', label: 'Deadline reopened' },
  { value: 'aml_approved', label: 'Due diligence approved' },
  { value: 'aml_returned', label: 'Due diligence returned' },
  { value: 'task_done', label: 'Task done' },
  { value: 'note', label: 'Note' },
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number]['value'];

export const TimelineEntrySchema = Type.Object({
  id: Type.String(),
  client_id: Type.String(),
  kind: literals(TIMELINE_KINDS.map((k) => k.value)),
  /** When it happened (the event's occurredAt). */
  at: CrmDateTime,
  /** One line, e.g. 'Engagement letter v1 signed by Sarah Collins'. */
  summary: Type.String(),
  actor_name: Nullable(Type.String()),
  /** Where it came from, e.g. 'billing', 'engagement', 'crm'. */
  source: Type.String(),
  /** The thing it is about, e.g. { type: 'document', id } (for a link). */
  ref: Nullable(Type.Object({ type: Type.String(), id: Type.String() })),
});
export type TimelineEntry = Static<typeof TimelineEntrySchema>;

export const TimelineQuerySchema = Type.Object(
  {
    /** The next_cursor of the previous page. */
    before: Type.Optional(
      Type.String({ maxLength: 60, pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,3})?Z\\|\\d{1,15}$' }),
    ),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
  },
  { additionalProperties: false },
);
export type TimelineQuery = Static<typeof TimelineQuerySchema>;

export const TimelineReplySchema = Type.Object({ entries: Type.Array(TimelineEntrySchema), next_cursor: Nullable(Type.String()) });
export type TimelineReply = Static<typeof TimelineReplySchema>;

export const NoteInputSchema = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: 4000, pattern: '\\S' }) },
  { additionalProperties: false },
);
export type NoteInput = Static<typeof NoteInputSchema>;
export const NoteReplySchema = Type.Object({ entry: TimelineEntrySchema, message: Type.String() });

// ---------------------------------------------------------------------------------------------------
// My work

export const WORK_WHO = ['mine', 'everyone'] as const;
export type WorkWho = (typeof WORK_WHO)[number];
export const WorkQuerySchema = Type.Object({ who: Type.Optional(literals(WORK_WHO)) }, { additionalProperties: false });
export type WorkQuery = Static<typeof WorkQuerySchema>;

export const WORK_BUCKETS = [
  { value: 'overdue', label: 'Overdue' },
  { value: 'this_week', label: 'Due this week' },
  { value: 'next_week', label: 'Due next week' },
] as const;
export type WorkBucket = (typeof WORK_BUCKETS)[number]['value'];

export const WORK_KINDS = ['deadline', 'task', 'aml_review', 'letter'] as const;
export type WorkKind = (typeof WORK_KINDS)[number];

export const WorkItemSchema = Type.Object({
  kind: literals(WORK_KINDS),
  id: Type.String(),
  client_id: Nullable(Type.String()),
  client_name: Nullable(Type.String()),
  title: Type.String(),
  /** The day it is due (a letter: the day it was sent; an AML file awaiting approval: the day it was sent for it). */
  due_on: CrmDate,
  bucket: literals(WORK_BUCKETS.map((b) => b.value)),
  assignee_id: Nullable(Type.String()),
  assignee_name: Nullable(Type.String()),
  /** The deadline a task came from, when it did. */
  deadline_id: Nullable(Type.String()),
});
export type WorkItem = Static<typeof WorkItemSchema>;

/** Each My work route's reply: overdue first, then by due date. */
export const WorkReplySchema = Type.Object({ items: Type.Array(WorkItemSchema), today: CrmDate, who: literals(WORK_WHO) });
export type WorkReply = Static<typeof WorkReplySchema>;

/** Monday of the week `isoDate` falls in (ISO weeks, as UK diaries count them). */
export function weekStart(isoDate: string): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  const dow = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - dow);
  return d.toISOString().slice(0, 10);
}
function addDays(isoDate: string, n: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Which My work bucket a due date falls in, or null when it is later than next week. */
export function workBucket(dueOn: string, today: string): WorkBucket | null {
  if (dueOn < today) return 'overdue';
  const monday = weekStart(today);
  if (dueOn < addDays(monday, 7)) return 'this_week';
  if (dueOn < addDays(monday, 14)) return 'next_week';
  return null;
}

/** The last day My work looks at: Sunday of next week. */
export function workHorizon(today: string): string {
  return addDays(weekStart(today), 13);
}

// ---------------------------------------------------------------------------------------------------
// Tasks

export const TaskActionReplySchema = Type.Object({ task_id: CrmUuid, status: Type.String(), message: Type.String() });
export type TaskActionReply = Static<typeof TaskActionReplySchema>;

// ---------------------------------------------------------------------------------------------------
// Deadlines done

export const DEADLINE_FILED_BY = ['practice', 'previous_agent'] as const;

/** POST /api/deadlines/:id/done body (optional as a whole: an empty body records today, no reference, the practice). */
export const DeadlineDoneInputSchema = Type.Object(
  {
    /** The day it was filed (not in the future); default today. */
    filed_on: Type.Optional(CrmDate),
    /** HMRC submission reference, Companies House transaction id… */
    reference: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    /** 'previous_agent': before the engagement start, filed by the client's earlier accountant. */
    filed_by: Type.Optional(literals(DEADLINE_FILED_BY)),
  },
  { additionalProperties: false },
);
export type DeadlineDoneInput = Static<typeof DeadlineDoneInputSchema>;

export const NextDeadlinesQuerySchema = Type.Object(
  { client_ids: Type.String({ maxLength: 8000, pattern: '^[^\\s]*$' }) },
  { additionalProperties: false },
);
export type NextDeadlinesQuery = Static<typeof NextDeadlinesQuerySchema>;

export const NextDeadlinesReplySchema = Type.Object({
  /** One per visible client that has an open deadline: its earliest (an overdue one when there is one). */
  next: Type.Array(
    Type.Object({
      client_id: Type.String(),
      deadline_id: Type.String(),
      kind: Type.String(),
      period: Type.String(),
      due_on: CrmDate,
      overdue: Type.Boolean(),
      overdue_count: Type.Integer({ minimum: 0 }),
    }),
  ),
  today: CrmDate,
});
export type NextDeadlinesReply = Static<typeof NextDeadlinesReplySchema>;

// ---------------------------------------------------------------------------------------------------
// AML: the MLRO returns a file with a reason

export const AmlReturnInputSchema = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' }) },
  { additionalProperties: false },
);
export type AmlReturnInput = Static<typeof AmlReturnInputSchema>;
