import { clientDirectoryTable, outboxTables } from '@countinghouse/kit';
import type { CompanyOfficer, CompanyPsc, Evidence, Person, RiskAnswers, RiskAssessment, VersionState } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  date,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const SCHEMA = 'aml';
export const amlSchema = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(amlSchema);

/**
 * A read model of crm's clients (crm.client_upserted; the kit's client directory), with the business
 * type, the status and the day the relationship ended (cancelled).
 */
export const clientDirectory = clientDirectoryTable(amlSchema, {
  indexPrefix: 'aml_directory_',
  columns: {
    businessType: text('business_type'),
    subscriptionStatus: text('subscription_status').notNull(),
    /** London day the client was first seen cancelled; cleared if they come back (reg. 40 counts from here). */
    relationshipEndedOn: date('relationship_ended_on', { mode: 'string' }),
  },
});

/** The officers and PSCs Companies House last listed for a linked client (deadlines.company_refreshed). */
export const companyPeople = amlSchema.table('company_people', {
  clientId: text('client_id').primaryKey(),
  companyNumber: text('company_number').notNull(),
  officers: jsonb('officers').$type<CompanyOfficer[]>().notNull(),
  pscs: jsonb('pscs').$type<CompanyPsc[]>().notNull(),
  refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull(),
});

/** One AML file per client: which version is the latest and which is in force. */
export const files = amlSchema.table(
  'files',
  {
    clientId: text('client_id').primaryKey(),
    latestVersion: integer('latest_version').notNull().default(1),
    latestState: text('latest_state').$type<VersionState>().notNull().default('draft'),
    approvedVersion: integer('approved_version'),
    approvedNextReviewOn: date('approved_next_review_on', { mode: 'string' }),
    approvedRiskLevel: text('approved_risk_level'),
    /** When someone first worked on the file (a Companies House prefill does not count). */
    startedAt: timestamp('started_at', { withTimezone: true }),
    /** The next review the daily job has already announced (once per approved version). */
    reviewAnnouncedFor: date('review_announced_for', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('aml_files_review_idx').on(t.approvedNextReviewOn),
    check('aml_files_state_check', sql`${t.latestState} in ('draft', 'awaiting_approval', 'approved')`),
  ],
);

export type StoredEvidence = Omit<Evidence, 'filename'>;
export type StoredPerson = Omit<Person, 'evidence' | 'person_key'> & { ch_key: string | null; evidence: StoredEvidence[] };
export interface VersionContent {
  people: StoredPerson[];
  risk_answers: RiskAnswers | null;
}

/**
 * Every version of every file. An approved version is never changed (a trigger refuses it, beside the
 * use-cases' own check): a change starts the next version, a copy of it.
 */
export const versions = amlSchema.table(
  'versions',
  {
    clientId: text('client_id').notNull(),
    version: integer('version').notNull(),
    state: text('state').$type<VersionState>().notNull(),
    content: jsonb('content').$type<VersionContent>().notNull(),
    risk: jsonb('risk').$type<RiskAssessment>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdByName: text('created_by_name').notNull(),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    approvedBy: text('approved_by'),
    approvedByName: text('approved_by_name'),
    approvalNote: text('approval_note'),
    nextReviewOn: date('next_review_on', { mode: 'string' }),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.version] }),
    check('aml_versions_state_check', sql`${t.state} in ('draft', 'awaiting_approval', 'approved', 'superseded')`),
  ],
);

/** Evidence files the documents service announced (documents.document_uploaded of type aml_evidence). */
export const evidenceDocuments = amlSchema.table(
  'evidence_documents',
  {
    documentId: text('document_id').primaryKey(),
    clientId: text('client_id').notNull(),
    filename: text('filename').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('aml_evidence_documents_client_idx').on(t.clientId)],
);

/** Every view, change, upload and sign-off of a file: who, when, what. Only added to. */
export const audit = amlSchema.table(
  'audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clientId: text('client_id').notNull(),
    version: integer('version'),
    action: text('action').notNull(),
    detail: text('detail').notNull(),
    actorId: text('actor_id'),
    actorName: text('actor_name').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('aml_audit_client_idx').on(t.clientId, t.at)],
);

/** The record of each deletion after the retention period (kept when the file and its audit are gone). */
export const deletions = amlSchema.table(
  'deletions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clientId: text('client_id').notNull(),
    clientName: text('client_name').notNull(),
    relationshipEndedOn: date('relationship_ended_on', { mode: 'string' }).notNull(),
    deletedBy: text('deleted_by'),
    deletedByName: text('deleted_by_name').notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
    evidenceDocuments: integer('evidence_documents').notNull(),
  },
  (t) => [uniqueIndex('aml_deletions_client_at_idx').on(t.clientId, t.deletedAt)],
);

/**
 * The practice's verifications as an ACSP (ECCTA 2023), one row per verification: the personal code
 * Companies House gave, the date, the identity documents of the person's AML record it rests on (their
 * ids, never a copy), and who recorded it. Never updated (a trigger refuses it); deleted only seven
 * years after the verification.
 */
export const identityVerifications = amlSchema.table(
  'identity_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    personKey: text('person_key').notNull(),
    personName: text('person_name').notNull(),
    personalCode: text('personal_code').notNull(),
    /** The practice's ACSP number and AML supervisor when it verified (from acsp_settings). */
    acspNumber: text('acsp_number').notNull(),
    amlSupervisor: text('aml_supervisor').notNull(),
    verifiedOn: date('verified_on', { mode: 'string' }).notNull(),
    evidenceDocumentIds: jsonb('evidence_document_ids').$type<string[]>().notNull(),
    recordedBy: text('recorded_by'),
    recordedByName: text('recorded_by_name').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('aml_identity_verifications_client_idx').on(t.clientId, t.personKey),
    check('aml_identity_verifications_code_check', sql`${t.personalCode} ~ '^[A-Z0-9]{11}$'`),
  ],
);

/** The practice as an ACSP: its Companies House ACSP number and AML supervisory body (one row, id 1). */
export const acspSettings = amlSchema.table(
  'acsp_settings',
  {
    id: integer('id').primaryKey().default(1),
    acspNumber: text('acsp_number').notNull(),
    amlSupervisor: text('aml_supervisor').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedByName: text('updated_by_name').notNull(),
  },
  (t) => [check('aml_acsp_settings_single_row', sql`${t.id} = 1`)],
);
