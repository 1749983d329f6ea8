import { Type, type TSchema } from '@sinclair/typebox';

// Patterns, not formats: consumers check events with TypeBox's Value, which knows no formats.
const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);

/** What kind of sensitive record was read (issue 34: views are audited as changes are). */
export const VIEWED_RECORDS = ['client_record', 'aml_file', 'identity_documents', 'document'] as const;
export type ViewedRecord = (typeof VIEWED_RECORDS)[number];

/**
 * Someone read a sensitive record of a client. Published by the service that served it (crm, aml,
 * documents: each under its own topic as `<service>.record_viewed`); the records service writes the
 * audit entry. Who and from which address travel in the envelope's actor.
 */
export const RecordViewedSchema = Type.Object({
  clientId: Type.String(),
  record: Type.Union(VIEWED_RECORDS.map((r) => Type.Literal(r))),
  /** The record's own id when there is one (a document). */
  recordId: Nullable(Type.String()),
  /** A short label, no content ("AML file", "bank-statement.pdf"). */
  label: Type.String({ maxLength: 200 }),
});

/** The record types a retention schedule covers, and the service that holds and erases each. */
export const RETENTION_RECORD_TYPES = ['documents', 'engagement_letters', 'aml_file'] as const;
export type RetentionRecordType = (typeof RETENTION_RECORD_TYPES)[number];
export const RetentionRecordTypeSchema = Type.Union(RETENTION_RECORD_TYPES.map((r) => Type.Literal(r)));

/**
 * The records service's daily run found a client's records of one type past their retention period:
 * the owning service deletes them (files in the object store too) and answers `<service>.records_erased`.
 * `recordedBefore`: only records dated before this day (trigger: the record's date); null: all of them
 * (trigger: the end of the relationship).
 */
export const EraseRequestedSchema = Type.Object({
  runId: Type.String(),
  clientId: Type.String(),
  recordType: RetentionRecordTypeSchema,
  recordedBefore: Nullable(IsoDate),
});

/** What a service removed for one erase request (the run's report lists it). */
export const RecordsErasedSchema = Type.Object({
  runId: Type.String(),
  clientId: Type.String(),
  recordType: RetentionRecordTypeSchema,
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      label: Type.String({ maxLength: 300 }),
      /** Files of this item deleted from storage (the object store or the data folder). */
      files: Type.Integer({ minimum: 0 }),
    }),
    { maxItems: 10000 },
  ),
});

/**
 * A subject-access request was logged for a client user (UK GDPR Art. 15): every service that holds
 * something of theirs answers with `<service>.subject_access_part` events, the last one `last: true`.
 */
export const SubjectAccessRequestedSchema = Type.Object({
  requestId: Type.String(),
  clientId: Type.String(),
  /** The person's sign-in account (a client user). */
  userId: Type.String(),
});

/** Files for the archive (paths inside it, under the service's folder); a service's last part says so. */
export const SubjectAccessPartSchema = Type.Object({
  requestId: Type.String(),
  files: Type.Array(Type.Object({ path: Type.String({ minLength: 1, maxLength: 300 }), base64: Type.String() }), { maxItems: 1000 }),
  last: Type.Boolean(),
});

/** The services that answer a subject-access request, each with its own part of the archive. */
export const SUBJECT_ACCESS_SERVICES = ['crm', 'documents', 'engagement', 'requests'] as const;

export const RECORDS_EVENTS = {
  'records.erase_requested': EraseRequestedSchema,
  'records.subject_access_requested': SubjectAccessRequestedSchema,
  'crm.subject_access_part': SubjectAccessPartSchema,
  'documents.subject_access_part': SubjectAccessPartSchema,
  'engagement.subject_access_part': SubjectAccessPartSchema,
  'requests.subject_access_part': SubjectAccessPartSchema,
  'crm.record_viewed': RecordViewedSchema,
  'aml.record_viewed': RecordViewedSchema,
  'documents.record_viewed': RecordViewedSchema,
  'documents.records_erased': RecordsErasedSchema,
  'aml.records_erased': RecordsErasedSchema,
  'engagement.records_erased': RecordsErasedSchema,
} as const;
