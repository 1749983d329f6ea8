import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { RetentionRecordTypeSchema, SUBJECT_KINDS, type RetentionRecordType } from './events.js';

const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
// a real calendar day (ajv-formats' full 'date': 2026-02-30 and 8637-88-16 are a 400 at the edge, not a 500 from PostgreSQL)
const IsoDate = Type.String({ format: 'date' });

// ---- the audit trail -------------------------------------------------------------------------

export const AuditRecordSchema = Type.Object({
  id: Type.String(),
  client_id: Nullable(Type.String()),
  /**
   * The client's company name as records last heard it from crm (client_retention); null for an entry
   * about no client, or a client records has not heard of.
   */
  client_name: Nullable(Type.String()),
  /** Place in the client's chain (1, 2, …); entries about no client chain under the practice. */
  seq: Type.Integer(),
  occurred_at: Type.String(),
  actor_kind: Type.String(),
  actor_id: Nullable(Type.String()),
  actor_name: Nullable(Type.String()),
  ip: Nullable(Type.String()),
  /** The event type (crm.client_upserted, aml.record_viewed …). */
  action: Type.String(),
  /** What happened, without content: changed fields by name, the record viewed. */
  summary: Type.String(),
  hash: Type.String(),
});
export type AuditRecord = Static<typeof AuditRecordSchema>;

export const AuditQuerySchema = Type.Object({
  client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  actor_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** views: reads of sensitive records only; changes: everything else. */
  kind: Type.Optional(Type.Union([Type.Literal('views'), Type.Literal('changes')])),
  from: Type.Optional(IsoDate),
  to: Type.Optional(IsoDate),
  page: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
  page_size: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
});
export type AuditQuery = Static<typeof AuditQuerySchema>;

export const AuditListSchema = Type.Object({
  entries: Type.Array(AuditRecordSchema),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
});
export type AuditList = Static<typeof AuditListSchema>;

export const ChainCheckSchema = Type.Object({
  client_id: Nullable(Type.String()),
  entries: Type.Integer(),
  intact: Type.Boolean(),
  /** The first entry whose hash does not follow from its content and the entry before. */
  broken_at_seq: Nullable(Type.Integer()),
  message: Type.String(),
});
export type ChainCheck = Static<typeof ChainCheckSchema>;

export const AUDIT_MESSAGES = {
  intact: 'The audit trail is intact.',
  broken: (seq: number) => `The audit trail was altered: entry ${seq} does not match its chain.`,
} as const;

// ---- retention -------------------------------------------------------------------------------

export const RETENTION_TRIGGERS = [
  { value: 'relationship_end', label: 'After the client relationship ends' },
  { value: 'record_date', label: 'After the date of the record' },
] as const;
export type RetentionTrigger = (typeof RETENTION_TRIGGERS)[number]['value'];
export const RetentionTriggerSchema = Type.Union(RETENTION_TRIGGERS.map((t) => Type.Literal(t.value)));

/**
 * The legal minimum of each record type: the schedule may keep records longer, never shorter.
 * - aml_file: MLR 2017 reg. 40(3)-(4), customer due diligence records 5 years from the end of the relationship.
 * - documents: accounting and tax records 6 years (HMRC: FA 1998 Sch. 18 para. 21 for companies' returns;
 *   Companies Act 2006 s.388; the practice's working papers against a claim, Limitation Act 1980 s.5).
 * - engagement_letters: the life of the engagement and 6 years after (Limitation Act 1980 s.5, contract).
 * - acsp_verifications: the practice's identity verifications as an ACSP, 7 years from the verification
 *   (Companies House's ACSP conditions under ECCTA 2023; aml's trigger refuses an earlier delete).
 * - audit_entries: the audit trail, 6 years from the entry (the practice's evidence of how it handled the
 *   records, for as long as a claim about the work can be brought: Limitation Act 1980 s.5; UK GDPR
 *   Art. 5(1)(e) and 5(2): kept no longer, and the controller can show compliance meanwhile).
 */
export const RETENTION_MINIMUMS: Record<RetentionRecordType, { years: number; trigger: RetentionTrigger; label: string; basis: string }> = {
  documents: {
    years: 6,
    trigger: 'relationship_end',
    label: 'Documents (accounting and tax records)',
    basis: 'Accounting and tax records: 6 years (FA 1998 Sch. 18 para. 21; Companies Act 2006 s.388)',
  },
  engagement_letters: {
    years: 6,
    trigger: 'relationship_end',
    label: 'Engagement letters',
    basis: 'The life of the engagement and 6 years after (Limitation Act 1980 s.5)',
  },
  aml_file: {
    years: 5,
    trigger: 'relationship_end',
    label: 'AML file (customer due diligence)',
    basis: 'MLR 2017 reg. 40: 5 years after the business relationship ends',
  },
  acsp_verifications: {
    years: 7,
    trigger: 'record_date',
    label: 'ACSP identity verification records',
    basis: 'Companies House ACSP conditions (ECCTA 2023): 7 years after the verification',
  },
  audit_entries: {
    years: 6,
    trigger: 'record_date',
    label: 'Audit trail entries',
    basis: 'Evidence of how records were handled while a claim can be brought: 6 years (Limitation Act 1980 s.5)',
  },
};

export const RetentionRuleSchema = Type.Object({
  record_type: RetentionRecordTypeSchema,
  label: Type.String(),
  years: Type.Integer(),
  trigger: RetentionTriggerSchema,
  minimum_years: Type.Integer(),
  minimum_trigger: RetentionTriggerSchema,
  basis: Type.String(),
  updated_by_name: Nullable(Type.String()),
  updated_at: Nullable(Type.String()),
});
export type RetentionRule = Static<typeof RetentionRuleSchema>;
export const RetentionScheduleSchema = Type.Object({ rules: Type.Array(RetentionRuleSchema) });
export type RetentionSchedule = Static<typeof RetentionScheduleSchema>;

export const RetentionRuleBodySchema = Type.Object({
  years: Type.Integer({ minimum: 1, maximum: 100 }),
  trigger: RetentionTriggerSchema,
});
export type RetentionRuleBody = Static<typeof RetentionRuleBodySchema>;

export const ClientRetentionSchema = Type.Object({
  client_id: Type.String(),
  company_name: Nullable(Type.String()),
  relationship_ended_on: Nullable(IsoDate),
  legal_hold: Type.Boolean(),
  hold_reason: Nullable(Type.String()),
});
export type ClientRetention = Static<typeof ClientRetentionSchema>;

export const ClientRetentionBodySchema = Type.Object({
  relationship_ended_on: Type.Optional(Nullable(IsoDate)),
  legal_hold: Type.Optional(Type.Boolean()),
  hold_reason: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
});
export type ClientRetentionBody = Static<typeof ClientRetentionBodySchema>;

export const RetentionRunBodySchema = Type.Object({ dry_run: Type.Boolean({ default: true }) });

export const RetentionDecisionSchema = Type.Object({
  client_id: Type.String(),
  company_name: Nullable(Type.String()),
  record_type: RetentionRecordTypeSchema,
  recorded_before: Nullable(IsoDate),
  /** Why: "left 31/01/2020; kept 6 years to 31/01/2026". */
  reason: Type.String(),
});
export type RetentionDecision = Static<typeof RetentionDecisionSchema>;

export const RetentionReportItemSchema = Type.Object({
  client_id: Type.String(),
  record_type: RetentionRecordTypeSchema,
  item_id: Type.String(),
  label: Type.String(),
  files_deleted: Type.Integer(),
  erased_at: Type.String(),
});

export const RetentionRunSchema = Type.Object({
  id: Type.String(),
  day: IsoDate,
  dry_run: Type.Boolean(),
  started_at: Type.String(),
  decisions: Type.Array(RetentionDecisionSchema),
  /** What the services reported removed (empty for a dry run, and until they answer). */
  removed: Type.Array(RetentionReportItemSchema),
  answered: Type.Integer(),
});
export type RetentionRun = Static<typeof RetentionRunSchema>;
export const RetentionRunsSchema = Type.Object({ runs: Type.Array(RetentionRunSchema) });

export const RETENTION_MESSAGES = {
  belowMinimum: (label: string, years: number) => `${label} must be kept at least ${years} years.`,
  earlierTrigger: (label: string) => `${label} must be kept from the end of the client relationship.`,
} as const;

// ---- subject-access requests -----------------------------------------------------------------

export const SAR_STATUSES = ['gathering', 'ready', 'downloaded'] as const;
export type SarStatus = (typeof SAR_STATUSES)[number];

export const SubjectAccessSchema = Type.Object({
  id: Type.String(),
  client_id: Type.String(),
  company_name: Nullable(Type.String()),
  /** Who: a client user, a director or PSC (person_key), or the client's contact. */
  subject: Type.Union(SUBJECT_KINDS.map((k) => Type.Literal(k))),
  user_id: Nullable(Type.String()),
  person_key: Nullable(Type.String()),
  person_name: Type.String(),
  requested_on: IsoDate,
  /** One month from the request (UK GDPR Art. 12(3)). */
  due_on: IsoDate,
  status: Type.Union(SAR_STATUSES.map((s) => Type.Literal(s))),
  /** Services that have answered, of those asked. */
  answered: Type.Integer(),
  expected: Type.Integer(),
  files: Type.Integer(),
  requested_by_name: Type.String(),
  downloaded_by_name: Nullable(Type.String()),
  downloaded_at: Nullable(Type.String()),
});
export type SubjectAccess = Static<typeof SubjectAccessSchema>;
export const SubjectAccessListSchema = Type.Object({ requests: Type.Array(SubjectAccessSchema) });
export type SubjectAccessList = Static<typeof SubjectAccessListSchema>;

/** An id as the services issue them (UUIDs, prefixed keys): nothing else reaches the event's JSON. */
const RecordIdSchema = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$' });
/** A person key: the AML file's person id or a Companies House key (officer:<role>:<name>, psc:<name>). */
const PersonKeySchema = Type.String({ minLength: 1, maxLength: 400, pattern: '^[^\\u0000-\\u001f\\u007f]+$' });
export const SubjectAccessBodySchema = Type.Object({
  client_id: RecordIdSchema,
  /** Absent: a client user. */
  subject: Type.Optional(Type.Union(SUBJECT_KINDS.map((k) => Type.Literal(k)))),
  /** The person's sign-in account: required for a client user; for a director, PSC or contact only if they have one. */
  user_id: Type.Optional(RecordIdSchema),
  /** A director or PSC: their key in the client's people. */
  person_key: Type.Optional(PersonKeySchema),
  person_name: Type.String({ minLength: 1, maxLength: 200 }),
});
export type SubjectAccessBody = Static<typeof SubjectAccessBodySchema>;

export const SAR_MESSAGES = {
  notReady: 'The archive is still being gathered.',
  downloaded: 'The archive has already been downloaded once; log a new request for another copy.',
  notFound: 'Subject-access request not found.',
  unknownClient: 'No client with this id is known to the records service.',
  userRequired: "Choose the client's user.",
  personRequired: 'Choose the director or PSC.',
} as const;
