import { Type, type Static, type TSchema } from '@sinclair/typebox';

const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
// Patterns, not formats: consumers check events with TypeBox's Value, which knows no formats.
export const IsoDateSchema = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** Document types a client understands (issue 28); each is also a documents type the file is filed under. */
export const REQUEST_DOCUMENT_TYPES = [
  { value: 'bank_statements', label: 'Bank statements' },
  { value: 'receipts', label: 'Receipts' },
  { value: 'sales_invoices', label: 'Sales invoices' },
  { value: 'identity_document', label: 'Identity document' },
  { value: 'payroll', label: 'Payroll' },
  { value: 'other', label: 'Other' },
] as const;
export type RequestDocumentType = (typeof REQUEST_DOCUMENT_TYPES)[number]['value'];
export const RequestDocumentTypeSchema = literals(REQUEST_DOCUMENT_TYPES.map((t) => t.value));

export const ITEM_KINDS = [
  { value: 'document', label: 'Upload a document' },
  { value: 'question', label: 'Answer a question' },
  { value: 'confirm', label: 'Confirm yes or no' },
] as const;
export type ItemKind = (typeof ITEM_KINDS)[number]['value'];
export const ItemKindSchema = literals(ITEM_KINDS.map((k) => k.value));

export const ITEM_STATUSES = ['requested', 'submitted', 'accepted', 'rejected'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
export const ItemStatusSchema = literals(ITEM_STATUSES);

export const REQUEST_STATUSES = ['open', 'complete', 'cancelled'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const RequestStatusSchema = literals(REQUEST_STATUSES);

/** The chase: days before the due date, then every N days once overdue (issue 28's example is the default). */
export const ReminderScheduleSchema = Type.Object({
  before_days: Type.Array(Type.Integer({ minimum: 1, maximum: 365 }), { maxItems: 20 }),
  overdue_every_days: Type.Integer({ minimum: 1, maximum: 90 }),
});
export type ReminderSchedule = Static<typeof ReminderScheduleSchema>;
export const DEFAULT_REMINDER_SCHEDULE: ReminderSchedule = { before_days: [14, 7, 3, 1], overdue_every_days: 3 };

export const TemplateItemSchema = Type.Object({
  kind: ItemKindSchema,
  label: Type.String({ minLength: 1, maxLength: 300 }),
  document_type: Nullable(RequestDocumentTypeSchema),
});
export type TemplateItem = Static<typeof TemplateItemSchema>;

export const RequestTemplateSchema = Type.Object({
  id: Type.String(),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  items: Type.Array(TemplateItemSchema, { minItems: 1, maxItems: 50 }),
  schedule: ReminderScheduleSchema,
  /** Opened by the daily job this many days before a deadline of this kind (null: sent by hand only). */
  deadline_kind: Nullable(Type.String({ maxLength: 60 })),
  lead_days: Nullable(Type.Integer({ minimum: 0, maximum: 400 })),
  updated_at: Type.String(),
});
export type RequestTemplate = Static<typeof RequestTemplateSchema>;
export const RequestTemplatesSchema = Type.Object({ templates: Type.Array(RequestTemplateSchema) });
export type RequestTemplates = Static<typeof RequestTemplatesSchema>;
export const TemplateBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    items: Type.Array(TemplateItemSchema, { minItems: 1, maxItems: 50 }),
    schedule: ReminderScheduleSchema,
    deadline_kind: Nullable(Type.String({ maxLength: 60 })),
    lead_days: Nullable(Type.Integer({ minimum: 0, maximum: 400 })),
  },
  { additionalProperties: false },
);
export type TemplateBody = Static<typeof TemplateBodySchema>;

export const RequestItemSchema = Type.Object({
  id: Type.String(),
  position: Type.Integer(),
  kind: ItemKindSchema,
  label: Type.String(),
  document_type: Nullable(RequestDocumentTypeSchema),
  status: ItemStatusSchema,
  answer: Nullable(Type.String()),
  confirmed: Nullable(Type.Boolean()),
  document_ids: Type.Array(Type.String()),
  rejection_reason: Nullable(Type.String()),
  submitted_at: Nullable(Type.String()),
  reviewed_at: Nullable(Type.String()),
});
export type RequestItem = Static<typeof RequestItemSchema>;

export const ActivitySchema = Type.Object({
  at: Type.String(),
  action: Type.String(),
  by_name: Type.String(),
  detail: Type.String(),
});

export const ClientRequestSchema = Type.Object({
  id: Type.String(),
  client_id: Type.String(),
  client_name: Type.String(),
  title: Type.String(),
  due_on: IsoDateSchema,
  status: RequestStatusSchema,
  deadline_id: Nullable(Type.String()),
  assignee_id: Nullable(Type.String()),
  sent_on: IsoDateSchema,
  /** Days since it was sent, while open ("waiting 12 days"). */
  waiting_days: Type.Integer(),
  open_items: Type.Integer(),
  awaiting_review: Type.Integer(),
  items: Type.Array(RequestItemSchema),
  reminders: Type.Array(Type.Object({ day: IsoDateSchema, at: Type.String(), to: Type.String() })),
  activity: Type.Array(ActivitySchema),
  completed_at: Nullable(Type.String()),
  created_at: Type.String(),
});
export type ClientRequest = Static<typeof ClientRequestSchema>;
export const RequestListSchema = Type.Object({ requests: Type.Array(ClientRequestSchema) });
export type RequestList = Static<typeof RequestListSchema>;
export const RequestListQuerySchema = Type.Object({
  status: Type.Optional(RequestStatusSchema),
  client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});

export const NewRequestBodySchema = Type.Object(
  {
    client_id: Type.String({ minLength: 1, maxLength: 64 }),
    title: Type.String({ minLength: 1, maxLength: 200 }),
    due_on: IsoDateSchema,
    template_id: Type.Optional(Type.String({ format: 'uuid' })),
    items: Type.Array(TemplateItemSchema, { minItems: 1, maxItems: 50 }),
  },
  { additionalProperties: false },
);
export type NewRequestBody = Static<typeof NewRequestBodySchema>;

/** Files travel base64 in JSON (the documents service files them); at most 5 MB each. */
export const MAX_REQUEST_FILE_BYTES = 5 * 1024 * 1024;
export const AttachedFileSchema = Type.Object({
  filename: Type.String({ minLength: 1, maxLength: 200 }),
  content_type: Type.String({ minLength: 1, maxLength: 100 }),
  base64: Type.String({ minLength: 1, maxLength: Math.ceil((MAX_REQUEST_FILE_BYTES * 4) / 3) + 4 }),
});
export type AttachedFile = Static<typeof AttachedFileSchema>;

export const SubmitItemBodySchema = Type.Object(
  {
    answer: Type.Optional(Type.String({ minLength: 1, maxLength: 5000 })),
    confirmed: Type.Optional(Type.Boolean()),
    file: Type.Optional(AttachedFileSchema),
  },
  { additionalProperties: false },
);
export type SubmitItemBody = Static<typeof SubmitItemBodySchema>;
export const ReviewItemBodySchema = Type.Object(
  {
    decision: literals(['accept', 'reject'] as const),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
  },
  { additionalProperties: false },
);
export type ReviewItemBody = Static<typeof ReviewItemBodySchema>;

export const MessageSchema = Type.Object({
  id: Type.String(),
  client_id: Type.String(),
  side: literals(['client', 'practice'] as const),
  author_name: Type.String(),
  body: Type.String(),
  attachments: Type.Array(Type.Object({ document_id: Type.String(), filename: Type.String() })),
  created_at: Type.String(),
});
export type Message = Static<typeof MessageSchema>;
export const ThreadSchema = Type.Object({
  client_id: Type.String(),
  client_name: Type.String(),
  messages: Type.Array(MessageSchema),
  /** Messages from the other side the caller's side has not read. */
  unread: Type.Integer(),
});
export type Thread = Static<typeof ThreadSchema>;
export const PostMessageBodySchema = Type.Object(
  {
    body: Type.String({ minLength: 1, maxLength: 10000 }),
    attachments: Type.Optional(Type.Array(AttachedFileSchema, { maxItems: 5 })),
  },
  { additionalProperties: false },
);
export type PostMessageBody = Static<typeof PostMessageBodySchema>;
export const UnreadThreadsSchema = Type.Object({
  threads: Type.Array(
    Type.Object({ client_id: Type.String(), client_name: Type.String(), unread: Type.Integer(), last_at: Type.String() }),
  ),
});
export type UnreadThreads = Static<typeof UnreadThreadsSchema>;
export const AwaitingReviewSchema = Type.Object({
  items: Type.Array(
    Type.Object({
      request_id: Type.String(),
      item_id: Type.String(),
      client_id: Type.String(),
      client_name: Type.String(),
      title: Type.String(),
      label: Type.String(),
      submitted_at: Type.String(),
    }),
  ),
});
export type AwaitingReview = Static<typeof AwaitingReviewSchema>;
export const OkSchema = Type.Object({ ok: Type.Boolean(), message: Type.String() });

export const RequestClientsSchema = Type.Object({
  clients: Type.Array(Type.Object({ client_id: Type.String(), company_name: Type.String() })),
});
export type RequestClients = Static<typeof RequestClientsSchema>;

/** The requests service's routes (the gateway mounts it at /api/requests). */
export const REQUESTS_ROUTES = {
  /** GET (?status, ?client_id): requests the caller may see; POST: send one (the practice). */
  list: '/api/requests',
  one: (id: string) => `/api/requests/${encodeURIComponent(id)}`,
  submit: (id: string, itemId: string) => `/api/requests/${encodeURIComponent(id)}/items/${encodeURIComponent(itemId)}/submit`,
  review: (id: string, itemId: string) => `/api/requests/${encodeURIComponent(id)}/items/${encodeURIComponent(itemId)}/review`,
  remind: (id: string) => `/api/requests/${encodeURIComponent(id)}/remind`,
  cancel: (id: string) => `/api/requests/${encodeURIComponent(id)}/cancel`,
  /** GET: items submitted and waiting for review (My work). */
  awaitingReview: '/api/requests/awaiting-review',
  /** GET: the clients the caller may send requests to. */
  clients: '/api/requests/clients',
  templates: '/api/requests/templates',
  template: (id: string) => `/api/requests/templates/${encodeURIComponent(id)}`,
  /** GET: threads with client messages the practice has not read (My work). */
  unreadThreads: '/api/requests/threads/unread',
  thread: (clientId: string) => `/api/requests/threads/${encodeURIComponent(clientId)}`,
  messages: (clientId: string) => `/api/requests/threads/${encodeURIComponent(clientId)}/messages`,
} as const;
