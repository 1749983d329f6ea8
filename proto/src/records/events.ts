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

/**
 * The record types a retention schedule covers, and the service that holds and erases each: documents
 * (documents, engagement letters' PDFs too), engagement (letters), aml (the AML file; its ACSP identity
 * verification records), records (its own audit entries, erased in the run itself, not by event).
 */
export const RETENTION_RECORD_TYPES = ['documents', 'engagement_letters', 'aml_file', 'acsp_verifications', 'audit_entries'] as const;
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
 * Who a subject-access request is for (issue 34 item 2): a client user (their sign-in account), a
 * director or PSC in the client's people (AML file / Companies House), or the client's contact in crm.
 */
export const SUBJECT_KINDS = ['client_user', 'person', 'contact'] as const;
export type SubjectKind = (typeof SUBJECT_KINDS)[number];

/**
 * A subject-access request was logged for a client user (UK GDPR Art. 15): every service that holds
 * something of theirs answers with `<service>.subject_access_part` events, the last one `last: true`.
 */
export const SubjectAccessRequestedSchema = Type.Object({
  requestId: Type.String(),
  clientId: Type.String(),
  /**
   * The person's sign-in account: a client user, or a director, PSC or contact who is also the client's
   * portal user. null: a person without one (their messages, letters and uploads are then none).
   */
  userId: Nullable(Type.String()),
  /** Who the request is about (absent in older events: a client user). */
  subject: Type.Optional(Type.Union(SUBJECT_KINDS.map((k) => Type.Literal(k)))),
  /** A director's or PSC's key in the client's people (the AML file's person id or Companies House key). */
  personKey: Type.Optional(Nullable(Type.String())),
  /** The person's name as the practice holds it (people are matched by it within the one client). */
  personName: Type.Optional(Type.String()),
});

/** A read of a subject-access request as every service sees it (older events: a client user). */
export function subjectOf(d: { userId: string | null; subject?: SubjectKind; personKey?: string | null; personName?: string }): {
  kind: SubjectKind;
  userId: string | null;
  personKey: string | null;
  personName: string;
} {
  return { kind: d.subject ?? 'client_user', userId: d.userId, personKey: d.personKey ?? null, personName: d.personName ?? '' };
}

/**
 * A name compared as people write it: case, accents, punctuation and word order aside, so Companies
 * House's "SMITH, Jane" is the AML file's "Jane Smith" (only ever compared within one client's people).
 */
export function foldName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .sort()
    .join(' ');
}

/** Files for the archive (paths inside it, under the service's folder); a service's last part says so. */
export const SubjectAccessPartSchema = Type.Object({
  requestId: Type.String(),
  files: Type.Array(Type.Object({ path: Type.String({ minLength: 1, maxLength: 300 }), base64: Type.String() }), { maxItems: 1000 }),
  last: Type.Boolean(),
});

/** The services that answer a subject-access request, each with its own part of the archive. */
export const SUBJECT_ACCESS_SERVICES = ['crm', 'documents', 'engagement', 'requests', 'aml', 'deadlines'] as const;

export const RECORDS_EVENTS = {
  'records.erase_requested': EraseRequestedSchema,
  'records.subject_access_requested': SubjectAccessRequestedSchema,
  'crm.subject_access_part': SubjectAccessPartSchema,
  'documents.subject_access_part': SubjectAccessPartSchema,
  'engagement.subject_access_part': SubjectAccessPartSchema,
  'requests.subject_access_part': SubjectAccessPartSchema,
  'aml.subject_access_part': SubjectAccessPartSchema,
  'deadlines.subject_access_part': SubjectAccessPartSchema,
  'crm.record_viewed': RecordViewedSchema,
  'aml.record_viewed': RecordViewedSchema,
  'documents.record_viewed': RecordViewedSchema,
  'documents.records_erased': RecordsErasedSchema,
  'aml.records_erased': RecordsErasedSchema,
  'engagement.records_erased': RecordsErasedSchema,
} as const;
