import { clientDirectoryTable, outboxTables } from '@countinghouse/kit';
import type { ItemKind, ItemStatus, ReminderSchedule, RequestDocumentType, RequestStatus, TemplateItem } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgSchema, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const SCHEMA = 'requests';
export const requestsSchema = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(requestsSchema);

/**
 * A read model of crm's clients (crm.client_upserted; the kit's client directory): who owns them, who
 * is their accountant, and where to write (the contact's address).
 */
export const clientDirectory = clientDirectoryTable(requestsSchema, {
  indexPrefix: 'requests_directory_',
  columns: { contactEmail: text('contact_email').notNull() },
});

/** A read model of the deadlines service's deadlines (deadlines.client_deadlines), replaced per client. */
export const deadlineDirectory = requestsSchema.table(
  'deadline_directory',
  {
    deadlineId: text('deadline_id').primaryKey(),
    clientId: text('client_id').notNull(),
    kind: text('kind').notNull(),
    period: text('period').notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    done: boolean('done').notNull().default(false),
  },
  (t) => [index('deadline_directory_client_idx').on(t.clientId), index('deadline_directory_due_idx').on(t.dueOn)],
);

/** The practice's request templates (settings, edited in place: they are not records of what was asked). */
export const templates = requestsSchema.table('templates', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  items: jsonb('items').$type<TemplateItem[]>().notNull(),
  schedule: jsonb('schedule').$type<ReminderSchedule>().notNull(),
  deadlineKind: text('deadline_kind'),
  leadDays: integer('lead_days'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const requests = requestsSchema.table(
  'requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    title: text('title').notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    status: text('status').$type<RequestStatus>().notNull().default('open'),
    templateId: uuid('template_id'),
    /** The chase at the time it was sent (a later template edit does not move a request already sent). */
    schedule: jsonb('schedule').$type<ReminderSchedule>().notNull(),
    deadlineId: text('deadline_id'),
    deadlineDueOn: date('deadline_due_on', { mode: 'string' }),
    assigneeId: text('assignee_id'),
    createdBy: text('created_by'),
    createdByName: text('created_by_name').notNull(),
    sentOn: date('sent_on', { mode: 'string' }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('requests_client_idx').on(t.clientId),
    index('requests_open_idx').on(t.status, t.dueOn),
    // Once per deadline (and due date): the daily job may run any number of times.
    uniqueIndex('requests_deadline_once')
      .on(t.deadlineId, t.deadlineDueOn)
      .where(sql`deadline_id is not null`),
  ],
);

export const items = requestsSchema.table(
  'items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => requests.id),
    position: integer('position').notNull(),
    kind: text('kind').$type<ItemKind>().notNull(),
    label: text('label').notNull(),
    documentType: text('document_type').$type<RequestDocumentType>(),
    status: text('status').$type<ItemStatus>().notNull().default('requested'),
    answer: text('answer'),
    confirmed: boolean('confirmed'),
    documentIds: jsonb('document_ids')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    rejectionReason: text('rejection_reason'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  },
  (t) => [index('items_request_idx').on(t.requestId), index('items_status_idx').on(t.status)],
);

/** What happened to a request, in order: added only (every answer, upload, decision and reminder stays). */
export const activity = requestsSchema.table(
  'activity',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id').notNull(),
    itemId: uuid('item_id'),
    action: text('action').notNull(),
    byId: text('by_id'),
    byName: text('by_name').notNull(),
    detail: text('detail').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('activity_request_idx').on(t.requestId, t.at)],
);

/** One reminder a day at most: the key is the request and the London day. */
export const reminders = requestsSchema.table(
  'reminders',
  {
    requestId: uuid('request_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    sentTo: text('sent_to').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    byName: text('by_name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.requestId, t.day] })],
);

export const messages = requestsSchema.table(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    side: text('side').$type<'client' | 'practice'>().notNull(),
    authorId: text('author_id').notNull(),
    authorName: text('author_name').notNull(),
    body: text('body').notNull(),
    attachments: jsonb('attachments').$type<Array<{ document_id: string; filename: string }>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('messages_client_idx').on(t.clientId, t.createdAt)],
);

/** Read state per thread and side: the practice reads as one (any staff member), the client as one. */
export const threadReads = requestsSchema.table(
  'thread_reads',
  {
    clientId: text('client_id').notNull(),
    side: text('side').$type<'client' | 'practice'>().notNull(),
    readAt: timestamp('read_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.side] })],
);
