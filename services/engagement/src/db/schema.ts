import { clientDirectoryTable, outboxTables } from '@countinghouse/kit';
import type { LetterAuditList, LetterReason, TemplateSet } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const SCHEMA = 'engagement';
export const engagementSchema = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(engagementSchema);

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * A read model of crm's clients (crm.client_upserted; the kit's client directory): who they are, their
 * package and fee, who owns them. Prospects (identity.user_registered) are rows here too.
 */
export const clientDirectory = clientDirectoryTable(engagementSchema, {
  indexPrefix: 'client_directory_',
  columns: {
    contactName: text('contact_name'),
    contactEmail: text('contact_email').notNull(),
    packageName: text('package_name'),
    monthlyFee: numeric('monthly_fee', { precision: 10, scale: 2, mode: 'number' }).notNull(),
    subscriptionStatus: text('subscription_status').notNull(),
    businessType: text('business_type'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
});

/** Every version of the practice's templates; the newest is current. Rows are only ever added. */
export const templateVersions = engagementSchema.table('template_versions', {
  version: integer('version').primaryKey(),
  templates: jsonb('templates').$type<TemplateSet>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  createdBy: text('created_by'),
  createdByName: text('created_by_name'),
});

/**
 * One version of a client's engagement letter. The text is fixed when it is sent; signing fills the
 * signature columns once. Once signed, a database trigger refuses any update, and every delete is
 * refused (migration 0001): a signed letter is a regulated record.
 */
export const letters = engagementSchema.table(
  'letters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    version: integer('version').notNull(),
    reason: text('reason').$type<LetterReason>().notNull(),
    templateVersion: integer('template_version').notNull(),
    packageName: text('package_name').notNull(),
    monthlyFee: numeric('monthly_fee', { precision: 10, scale: 2, mode: 'number' }).notNull(),
    isConsumer: boolean('is_consumer').notNull(),
    clientName: text('client_name').notNull(),
    recipientEmail: text('recipient_email').notNull(),
    text: text('text').notNull(),
    textSha256: text('text_sha256').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    sentBy: text('sent_by'),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    signerName: text('signer_name'),
    signerEmail: text('signer_email'),
    signerUserId: text('signer_user_id'),
    signerIp: text('signer_ip'),
    signerUserAgent: text('signer_user_agent'),
    pdf: bytea('pdf'),
    pdfSha256: text('pdf_sha256'),
    documentId: uuid('document_id'),
  },
  (t) => [
    uniqueIndex('letters_client_version_idx').on(t.clientId, t.version),
    index('letters_awaiting_idx')
      .on(t.sentAt)
      .where(sql`${t.signedAt} is null`),
    check('letters_reason_check', sql`${t.reason} in ('onboarding', 'package_changed', 'template_changed', 'sent_by_practice')`),
    check(
      'letters_signature_whole',
      sql`(${t.signedAt} is null) = (${t.signerName} is null) and (${t.signedAt} is null) = (${t.pdf} is null) and (${t.signedAt} is null) = (${t.documentId} is null)`,
    ),
  ],
);

/** Reminders sent for a letter (day 3, day 7): one row each, so a rerun sends none twice. */
export const reminders = engagementSchema.table(
  'reminders',
  {
    letterId: uuid('letter_id').notNull(),
    day: integer('day').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.letterId, t.day] })],
);

/** Who sent, viewed, signed or downloaded which letter, when and from where. Rows are only ever added. */
export const audit = engagementSchema.table(
  'audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    letterId: uuid('letter_id').notNull(),
    clientId: text('client_id').notNull(),
    action: text('action').$type<LetterAuditList['entries'][number]['action']>().notNull(),
    principalKind: text('principal_kind').notNull(),
    principalId: text('principal_id'),
    principalName: text('principal_name').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    detail: text('detail'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_letter_idx').on(t.letterId, t.at),
    check('audit_action_check', sql`${t.action} in ('send', 'view', 'sign', 'download', 'reminder')`),
  ],
);
