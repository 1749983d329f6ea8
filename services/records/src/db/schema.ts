import { outboxTables } from '@countinghouse/kit';
import type { RetentionDecision, RetentionRecordType, RetentionTrigger, SarStatus, SubjectKind } from '@countinghouse/proto';
import {
  bigserial,
  boolean,
  customType,
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

export const SCHEMA = 'records';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
export const recordsSchema = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(recordsSchema);

/**
 * The audit trail: append-only (a trigger refuses UPDATE), each entry chained by hash to the one before
 * in its chain (a client's id; 'practice' for entries about no client). Deleted only by the retention run.
 */
export const auditEntries = recordsSchema.table(
  'audit_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chain: text('chain').notNull(),
    seq: integer('seq').notNull(),
    clientId: text('client_id'),
    eventId: uuid('event_id').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id'),
    actorName: text('actor_name'),
    ip: text('ip'),
    action: text('action').notNull(),
    summary: text('summary').notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    uniqueIndex('records_audit_chain_seq_idx').on(t.chain, t.seq),
    uniqueIndex('records_audit_event_idx').on(t.eventId),
    index('records_audit_actor_idx').on(t.actorId, t.occurredAt),
    index('records_audit_client_idx').on(t.clientId, t.occurredAt),
  ],
);

/**
 * Where a chain's removed beginning ended (issue 34: audit entries under retention). The retention run
 * deletes a chain's oldest entries, a prefix, and writes here the seq and hash of the last one removed;
 * the chain check then requires the first remaining entry to follow it (seq + 1, prev_hash = hash), so
 * removing more, or altering what remains, is still found. One row per chain, only ever moved forward
 * (a trigger refuses a delete or a step back); each removal is also an entry of the practice's chain.
 */
export const auditCheckpoints = recordsSchema.table('audit_checkpoints', {
  chain: text('chain').primaryKey(),
  /** The last removed entry: every entry up to it is gone. */
  seq: integer('seq').notNull(),
  hash: text('hash').notNull(),
  /** Entries removed in all, and by which run. */
  removed: integer('removed').notNull(),
  runId: uuid('run_id').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The practice's ACSP identity verifications as aml announced them (aml.identity_verification_recorded;
 * withdrawn: gone): only the day of each, so the retention run (and its dry run) names those past their
 * seven years. aml keeps the record itself.
 */
export const acspVerifications = recordsSchema.table(
  'acsp_verifications',
  {
    clientId: text('client_id').notNull(),
    personKey: text('person_key').notNull(),
    verifiedOn: date('verified_on').notNull(),
    personName: text('person_name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.personKey, t.verifiedOn] })],
);

/**
 * The last seen value of each client field, as a hash (no personal data kept here): a
 * crm.client_upserted is turned into the names of the fields it changed.
 */
export const fieldHashes = recordsSchema.table(
  'field_hashes',
  { clientId: text('client_id').notNull(), field: text('field').notNull(), hash: text('hash').notNull() },
  (t) => [primaryKey({ columns: [t.clientId, t.field] })],
);

/** Each client's relationship and legal hold, from crm's events (cancelled: the relationship ended) and an administrator. */
export const clientRetention = recordsSchema.table('client_retention', {
  clientId: text('client_id').primaryKey(),
  companyName: text('company_name'),
  userId: text('user_id'),
  status: text('status'),
  relationshipEndedOn: date('relationship_ended_on'),
  /** The end date was set by hand (crm's status then no longer moves it). */
  endedManually: boolean('ended_manually').notNull().default(false),
  legalHold: boolean('legal_hold').notNull().default(false),
  holdReason: text('hold_reason'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The practice's schedule where it differs from the legal minimum (absent: the minimum). */
export const retentionRules = recordsSchema.table('retention_rules', {
  recordType: text('record_type').$type<RetentionRecordType>().primaryKey(),
  years: integer('years').notNull(),
  trigger: text('trigger').$type<RetentionTrigger>().notNull(),
  updatedById: text('updated_by_id'),
  updatedByName: text('updated_by_name'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const retentionRuns = recordsSchema.table(
  'retention_runs',
  {
    id: uuid('id').primaryKey(),
    day: date('day').notNull(),
    dryRun: boolean('dry_run').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    decisions: jsonb('decisions').$type<RetentionDecision[]>().notNull(),
  },
  (t) => [index('records_runs_started_idx').on(t.startedAt)],
);

/** The report: what each service said it removed, per run. */
export const retentionReport = recordsSchema.table(
  'retention_report',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: uuid('run_id').notNull(),
    clientId: text('client_id').notNull(),
    recordType: text('record_type').$type<RetentionRecordType>().notNull(),
    itemId: text('item_id').notNull(),
    label: text('label').notNull(),
    filesDeleted: integer('files_deleted').notNull(),
    erasedAt: timestamp('erased_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('records_report_run_idx').on(t.runId)],
);

/** One row per answered erase request (a service with nothing to remove answers too). */
export const retentionAnswers = recordsSchema.table(
  'retention_answers',
  {
    runId: uuid('run_id').notNull(),
    clientId: text('client_id').notNull(),
    recordType: text('record_type').notNull(),
    /** The answering service (documents and engagement both answer for engagement letters). */
    service: text('service').notNull(),
    filesDeleted: integer('files_deleted').notNull(),
    items: integer('items').notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.clientId, t.recordType, t.service] })],
);

/** Subject-access requests (UK GDPR Art. 15): the archive is kept until its one download, then dropped. */
export const sarRequests = recordsSchema.table(
  'sar_requests',
  {
    id: uuid('id').primaryKey(),
    clientId: text('client_id').notNull(),
    /** A client user, a director or PSC (person_key), or the client's contact. */
    subject: text('subject').$type<SubjectKind>().notNull().default('client_user'),
    /** Their sign-in account (always for a client user; a director, PSC or contact only if they have one). */
    userId: text('user_id'),
    personKey: text('person_key'),
    personName: text('person_name').notNull(),
    requestedOn: date('requested_on').notNull(),
    dueOn: date('due_on').notNull(),
    status: text('status').$type<SarStatus>().notNull(),
    answered: jsonb('answered').$type<string[]>().notNull(),
    files: integer('files').notNull().default(0),
    archive: bytea('archive'),
    requestedById: text('requested_by_id').notNull(),
    requestedByName: text('requested_by_name').notNull(),
    downloadedById: text('downloaded_by_id'),
    downloadedByName: text('downloaded_by_name'),
    downloadedAt: timestamp('downloaded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('records_sar_created_idx').on(t.createdAt)],
);

/** The services' files for a request, until the archive is built from them. */
export const sarFiles = recordsSchema.table(
  'sar_files',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: uuid('request_id').notNull(),
    path: text('path').notNull(),
    content: bytea('content').notNull(),
  },
  (t) => [index('records_sar_files_request_idx').on(t.requestId)],
);
