import { clientDirectoryTable, outboxTables } from '@countinghouse/kit';
import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const SCHEMA = 'documents';
export const documents = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(documents);

/**
 * The client directory: a read model of crm's clients, built from crm.client_upserted (the kit's client
 * directory, with the contact's e-mail), so lists show company_name and contact_email and access rules
 * know the owner and the assigned accountant without calling crm. Both are searched (trigram indexes).
 */
export const clientDirectory = clientDirectoryTable(documents, {
  indexPrefix: 'client_directory_',
  columns: {
    contactEmail: text('contact_email').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  indexes: (t) => [
    index('client_directory_company_trgm_idx').using('gin', t.companyName.op('gin_trgm_ops')),
    index('client_directory_email_trgm_idx').using('gin', t.contactEmail.op('gin_trgm_ops')),
  ],
});

export const clientDocuments = documents.table(
  'client_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    filename: text('filename').notNull(),
    documentType: text('document_type').notNull(),
    /** Storage key `{clientId}/{documentType}/{timestamp}-{random}.{ext}`; never derived from the file name. */
    filePath: text('file_path').notNull(),
    fileSize: integer('file_size').notNull(),
    contentType: text('content_type').notNull(),
    description: text('description'),
    /** User id of a person, or admin id for an admin session. */
    uploadedBy: text('uploaded_by').notNull(),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Lower-cased file name, description, company name and contact e-mail, one per line: one trigram
     * index serves the search across all four. Kept current when the directory entry changes.
     */
    searchText: text('search_text').notNull().default(''),
  },
  (t) => [
    index('client_documents_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('client_documents_client_created_idx').on(t.clientId, t.createdAt.desc(), t.id.desc()),
    index('client_documents_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    index('client_documents_status_idx').on(t.status),
    check('client_documents_status_check', sql`${t.status} in ('active', 'completed', 'pending')`),
    check('client_documents_size_check', sql`${t.fileSize} >= 0 and ${t.fileSize} <= 10485760`),
  ],
);

/** Who viewed, downloaded or uploaded which document, when and from where. */
export const documentAccessLog = documents.table(
  'document_access_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    documentId: uuid('document_id').notNull(),
    action: text('action').notNull(),
    principalKind: text('principal_kind').notNull(),
    principalId: text('principal_id').notNull(),
    principalName: text('principal_name').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('document_access_log_document_idx').on(t.documentId, t.at.desc()),
    check('document_access_log_action_check', sql`${t.action} in ('view', 'download', 'upload')`),
  ],
);
