import { outboxTables } from '@countinghouse/kit';
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, pgSchema, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const SCHEMA = 'notifications';
export const notificationsSchema = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(notificationsSchema);

/**
 * One row per notification, shared by every administrator (no row per recipient): who has read what
 * lives in recipient_state (a watermark) and read_receipts (reads above it).
 */
export const notifications = notificationsSchema.table(
  'notifications',
  {
    /** Order of raising: newest first, and the read watermark compares against it. */
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    id: uuid('id').notNull().unique().defaultRandom(),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The event that raised it: a redelivered event can never raise a second one. */
    sourceEventId: uuid('source_event_id').notNull().unique(),
  },
  (t) => [
    // The unread count and the unfiltered list walk the primary key down from the newest (and stop at
    // the cap or the page); a list of one kind walks this one.
    index('notifications_kind_seq_idx').on(t.kind, t.seq.desc()),
    check(
      'notifications_kind_check',
      sql`${t.kind} in ('new_client', 'payment_failed', 'document_uploaded', 'invitation_accepted', 'integration_sync_failed', 'job_failed', 'deadline_overdue', 'aml_review_due', 'engagement_signed')`,
    ),
  ],
);

/**
 * Per administrator (admin panel account or person with an admin grant): everything at or below
 * read_through is read ('Mark all read'); muted_kinds are the kinds they chose not to receive, so a
 * kind added later is on by default.
 */
export const recipientState = notificationsSchema.table(
  'recipient_state',
  {
    principalKind: text('principal_kind').notNull(),
    principalId: text('principal_id').notNull(),
    readThrough: bigint('read_through', { mode: 'number' }).notNull().default(0),
    mutedKinds: text('muted_kinds')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.principalKind, t.principalId] }),
    check('recipient_state_kind_check', sql`${t.principalKind} in ('admin', 'user')`),
  ],
);

/** Reads above the recipient's watermark; 'Mark all read' moves the watermark and drops them. */
export const readReceipts = notificationsSchema.table(
  'read_receipts',
  {
    principalKind: text('principal_kind').notNull(),
    principalId: text('principal_id').notNull(),
    seq: bigint('seq', { mode: 'number' })
      .notNull()
      .references(() => notifications.seq, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.principalKind, t.principalId, t.seq] })],
);

/**
 * The clients seen in crm.client_upserted: the first sighting of a client id is its creation (the
 * event does not say), and the company name names the client in later notifications.
 */
export const clientDirectory = notificationsSchema.table('client_directory', {
  clientId: text('client_id').primaryKey(),
  companyName: text('company_name').notNull(),
  firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
});
