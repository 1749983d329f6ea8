import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PageNumber } from '../text.js';

// Contracts of the anti-money-laundering service (routes under /api/aml). Browser-safe.
// Money Laundering, Terrorist Financing and Transfer of Funds (Information on the Payer) Regulations 2017
// (MLR 2017): reg. 28 customer due diligence, reg. 33 enhanced, reg. 35 politically exposed persons,
// reg. 37 simplified, reg. 40 record keeping.

const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const Line = (max: number) => Type.String({ maxLength: max, pattern: '^[^\\u0000-\\u001f\\u007f]*$' });
const ClientId = Type.String({ minLength: 1, maxLength: 64 });

export const AML_ROUTES = {
  /** GET: every client's due diligence, filtered, with counts by status and risk. */
  list: '/api/aml',
  /** GET: status of some clients (the client lists' "Due diligence outstanding" badge). */
  statuses: '/api/aml/statuses',
  /** GET: a client's AML file (latest version, the version list, the audit trail). */
  file: (clientId: string) => `/api/aml/clients/${encodeURIComponent(clientId)}`,
  version: (clientId: string, version: number) => `/api/aml/clients/${encodeURIComponent(clientId)}/versions/${version}`,
  people: (clientId: string) => `/api/aml/clients/${encodeURIComponent(clientId)}/people`,
  person: (clientId: string, personId: string) => `/api/aml/clients/${encodeURIComponent(clientId)}/people/${personId}`,
  evidence: (clientId: string, personId: string) => `/api/aml/clients/${encodeURIComponent(clientId)}/people/${personId}/evidence`,
  risk: (clientId: string) => `/api/aml/clients/${encodeURIComponent(clientId)}/risk`,
  submit: (clientId: string) => `/api/aml/clients/${encodeURIComponent(clientId)}/submit`,
  approve: (clientId: string) => `/api/aml/clients/${encodeURIComponent(clientId)}/approve`,
  newVersion: (clientId: string) => `/api/aml/clients/${encodeURIComponent(clientId)}/versions`,
  /** GET (admin): files past their retention period; DELETE .../clients/:id with the client's name to confirm. */
  deletable: '/api/aml/retention/deletable',
  deletions: '/api/aml/retention/deletions',
  /** GET (reports): clients by status and risk. */
  report: '/api/aml/report',
} as const;

/** The document type of identity evidence (documents service): never listed with a client's documents. */
export const AML_EVIDENCE_DOCUMENT_TYPE = 'aml_evidence';

export const AML_STATUSES = [
  { value: 'not_started', label: 'Not started' },
  { value: 'in_progress', label: 'In progress' },
  { value: 'awaiting_approval', label: 'Awaiting approval' },
  { value: 'approved', label: 'Approved' },
  { value: 'review_due', label: 'Review due' },
  { value: 'expired', label: 'Expired' },
] as const;
export type AmlStatus = (typeof AML_STATUSES)[number]['value'];
export const AML_STATUS_VALUES: AmlStatus[] = AML_STATUSES.map((s) => s.value);
export const AmlStatusSchema = Type.Union(AML_STATUSES.map((s) => Type.Literal(s.value)));
/** Statuses that leave a client's due diligence outstanding (no approved file in date). */
export const AML_OUTSTANDING_STATUSES: readonly AmlStatus[] = ['not_started', 'in_progress', 'awaiting_approval', 'expired'];
export const amlStatusLabel = (s: string) => AML_STATUSES.find((x) => x.value === s)?.label ?? s;
/** A review is due (task and notification) this many days before the review date. */
export const AML_REVIEW_LEAD_DAYS = 30;

export const RISK_LEVELS = ['low', 'medium', 'high'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
export const DUE_DILIGENCE_LEVELS = ['simplified', 'standard', 'enhanced'] as const;
export type DueDiligenceLevel = (typeof DUE_DILIGENCE_LEVELS)[number];
export const RISK_LABELS: Record<RiskLevel, string> = { low: 'Low', medium: 'Medium', high: 'High' };
export const DD_LABELS: Record<DueDiligenceLevel, string> = {
  simplified: 'Simplified due diligence',
  standard: 'Standard due diligence',
  enhanced: 'Enhanced due diligence',
};

export const PERSON_ROLES = [
  { value: 'director', label: 'Director' },
  { value: 'secretary', label: 'Company secretary' },
  { value: 'llp_member', label: 'LLP member' },
  { value: 'psc', label: 'Person with significant control' },
  { value: 'owner', label: 'Owner (sole trader)' },
  { value: 'partner', label: 'Partner' },
  { value: 'other', label: 'Other' },
] as const;
export type PersonRole = (typeof PERSON_ROLES)[number]['value'];
export const OWNERSHIP_BANDS = [
  { value: 'none', label: 'No ownership' },
  { value: 'under_25', label: 'Under 25%' },
  { value: '25_to_50', label: '25% to 50%' },
  { value: '50_to_75', label: '50% to 75%' },
  { value: '75_or_more', label: '75% or more' },
] as const;
export type OwnershipBand = (typeof OWNERSHIP_BANDS)[number]['value'];
export const VERIFICATION_METHODS = [
  { value: 'in_person', label: 'In person' },
  { value: 'video', label: 'Video call' },
  { value: 'electronic', label: 'Electronic check' },
] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number]['value'];

/** The risk questionnaire: every question, its options and the label the form shows. */
export const RISK_QUESTIONS = {
  sector: {
    label: 'Sector',
    options: [
      { value: 'standard', label: 'Standard (most trades and professions)' },
      { value: 'elevated', label: 'Elevated (property, construction, car sales, art, hospitality)' },
      { value: 'high', label: 'High (money service business, crypto-assets, gambling, arms)' },
    ],
  },
  cash_intensive: { label: 'Cash-intensive business' },
  jurisdiction: {
    label: 'Where the business and its owners are',
    options: [
      { value: 'uk', label: 'United Kingdom' },
      { value: 'abroad', label: 'Outside the UK (not a high-risk third country)' },
      { value: 'high_risk_third_country', label: 'A high-risk third country (MLR 2017 Schedule 3ZA)' },
    ],
  },
  pep: { label: 'A politically exposed person, or a family member or close associate of one' },
  complex_structure: { label: 'Complex or unusual ownership structure' },
  non_face_to_face: { label: 'Not met face to face' },
  source_of_funds: {
    label: 'Source of funds',
    options: [
      { value: 'clear', label: 'Clear and evidenced' },
      { value: 'unclear', label: 'Unclear or unexplained' },
    ],
  },
} as const;

export const RiskAnswersSchema = Type.Object(
  {
    sector: Type.Union([Type.Literal('standard'), Type.Literal('elevated'), Type.Literal('high')]),
    cash_intensive: Type.Boolean(),
    jurisdiction: Type.Union([Type.Literal('uk'), Type.Literal('abroad'), Type.Literal('high_risk_third_country')]),
    pep: Type.Boolean(),
    complex_structure: Type.Boolean(),
    non_face_to_face: Type.Boolean(),
    source_of_funds: Type.Union([Type.Literal('clear'), Type.Literal('unclear')]),
  },
  { additionalProperties: false },
);
export type RiskAnswers = Static<typeof RiskAnswersSchema>;

export const RiskAssessmentSchema = Type.Object({
  level: Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high')]),
  due_diligence: Type.Union([Type.Literal('simplified'), Type.Literal('standard'), Type.Literal('enhanced')]),
  review_years: Type.Integer(),
  reasons: Type.Array(Type.String()),
});
export type RiskAssessment = Static<typeof RiskAssessmentSchema>;

const PersonRoleSchema = Type.Union(PERSON_ROLES.map((r) => Type.Literal(r.value)));
const OwnershipBandSchema = Type.Union(OWNERSHIP_BANDS.map((b) => Type.Literal(b.value)));
const MethodSchema = Type.Union(VERIFICATION_METHODS.map((m) => Type.Literal(m.value)));

export const PersonInputSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000-\\u001f\\u007f]*\\S[^\\u0000-\\u001f\\u007f]*$' }),
    date_of_birth: Nullable(IsoDate),
    address: Line(500),
    role: PersonRoleSchema,
    ownership_band: OwnershipBandSchema,
  },
  { additionalProperties: false },
);
export type PersonInput = Static<typeof PersonInputSchema>;

export const EvidenceInputSchema = Type.Object(
  {
    document_id: Type.String({ format: 'uuid' }),
    method: MethodSchema,
    checked_on: IsoDate,
  },
  { additionalProperties: false },
);
export type EvidenceInput = Static<typeof EvidenceInputSchema>;

export const EvidenceSchema = Type.Object({
  id: Type.String(),
  document_id: Type.String(),
  /** Null until the documents service has announced the upload (or when it is not this client's evidence). */
  filename: Nullable(Type.String()),
  method: MethodSchema,
  checked_on: IsoDate,
  checked_by_id: Type.String(),
  checked_by_name: Type.String(),
  added_at: Type.String(),
});
export type Evidence = Static<typeof EvidenceSchema>;

export const PersonSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  date_of_birth: Nullable(IsoDate),
  address: Type.String(),
  role: PersonRoleSchema,
  ownership_band: OwnershipBandSchema,
  source: Type.Union([Type.Literal('companies_house'), Type.Literal('manual')]),
  /**
   * The person's key on Companies House's register (`officer:<role>:<name>`, `psc:<name>`), the same key the
   * identity verification view uses (issue 30, decision 260); null for a person entered by hand.
   */
  person_key: Type.Optional(Nullable(Type.String())),
  /** Companies House says this officer resigned or this PSC ceased (kept for the record). */
  ceased_on: Nullable(IsoDate),
  evidence: Type.Array(EvidenceSchema),
});
export type Person = Static<typeof PersonSchema>;

export const VERSION_STATES = ['draft', 'awaiting_approval', 'approved', 'superseded'] as const;
export type VersionState = (typeof VERSION_STATES)[number];

export const AmlVersionSchema = Type.Object({
  version: Type.Integer(),
  state: Type.Union(VERSION_STATES.map((s) => Type.Literal(s))),
  people: Type.Array(PersonSchema),
  risk_answers: Nullable(RiskAnswersSchema),
  risk: Nullable(RiskAssessmentSchema),
  created_at: Type.String(),
  created_by_name: Type.String(),
  approved_at: Nullable(Type.String()),
  approved_by_name: Nullable(Type.String()),
  approval_note: Nullable(Type.String()),
  next_review_on: Nullable(IsoDate),
});
export type AmlVersion = Static<typeof AmlVersionSchema>;

export const AuditEntrySchema = Type.Object({
  id: Type.String(),
  version: Nullable(Type.Integer()),
  action: Type.String(),
  detail: Type.String(),
  actor_name: Type.String(),
  at: Type.String(),
});
export type AuditEntry = Static<typeof AuditEntrySchema>;

export const AmlFileSchema = Type.Object({
  client_id: Type.String(),
  client_name: Type.String(),
  business_type: Nullable(Type.String()),
  subscription_status: Type.String(),
  company_number: Nullable(Type.String()),
  status: AmlStatusSchema,
  outstanding: Type.Boolean(),
  /** The version in force (the last approved one), if any. */
  approved_version: Nullable(Type.Integer()),
  current: AmlVersionSchema,
  versions: Type.Array(Type.Object({ version: Type.Integer(), state: Type.String(), approved_at: Nullable(Type.String()) })),
  retention: Type.Object({
    relationship_ended_on: Nullable(IsoDate),
    keep_until: Nullable(IsoDate),
    deletable: Type.Boolean(),
    reason: Type.String(),
  }),
  can: Type.Object({ edit: Type.Boolean(), approve: Type.Boolean(), delete: Type.Boolean() }),
  audit: Type.Array(AuditEntrySchema),
  /** The MLRO's last return of the working version, with the reason (issue 26); null once sent again. */
  returned: Type.Optional(Nullable(Type.Object({ reason: Type.String(), by_name: Type.String(), at: Type.String() }))),
});
export type AmlFile = Static<typeof AmlFileSchema>;

export const ClientParamsSchema = Type.Object({ clientId: ClientId });
export const PersonParamsSchema = Type.Object({ clientId: ClientId, personId: Type.String({ format: 'uuid' }) });
export const VersionParamsSchema = Type.Object({ clientId: ClientId, version: Type.Integer({ minimum: 1, maximum: 100000 }) });
export const ApproveInputSchema = Type.Object(
  { note: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' }) },
  { additionalProperties: false },
);
export type ApproveInput = Static<typeof ApproveInputSchema>;
export const DeleteFileInputSchema = Type.Object(
  { confirm_client_name: Type.String({ minLength: 1, maxLength: 300 }) },
  { additionalProperties: false },
);
export type DeleteFileInput = Static<typeof DeleteFileInputSchema>;

export const AmlListQuerySchema = Type.Object({
  status: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('outstanding'), AmlStatusSchema])),
  risk: Type.Optional(
    Type.Union([Type.Literal('all'), Type.Literal('low'), Type.Literal('medium'), Type.Literal('high'), Type.Literal('none')]),
  ),
  search: Type.Optional(Line(100)),
  page: PageNumber(),
  page_size: Type.Integer({ minimum: 1, maximum: 100, default: 25 }),
});
export type AmlListQuery = Static<typeof AmlListQuerySchema>;

export const AmlListItemSchema = Type.Object({
  client_id: Type.String(),
  client_name: Type.String(),
  status: AmlStatusSchema,
  outstanding: Type.Boolean(),
  risk_level: Nullable(Type.String()),
  next_review_on: Nullable(IsoDate),
  version: Type.Integer(),
});
export type AmlListItem = Static<typeof AmlListItemSchema>;
export const AmlCountsSchema = Type.Object({
  by_status: Type.Record(Type.String(), Type.Integer()),
  by_risk: Type.Record(Type.String(), Type.Integer()),
  outstanding: Type.Integer(),
});
export type AmlCounts = Static<typeof AmlCountsSchema>;
export const AmlListSchema = Type.Object({
  items: Type.Array(AmlListItemSchema),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
  counts: AmlCountsSchema,
});
export type AmlList = Static<typeof AmlListSchema>;

export const AmlStatusesQuerySchema = Type.Object({ client_ids: Type.String({ maxLength: 4000, pattern: '^[^\\s]*$' }) });
export const AmlStatusesSchema = Type.Object({
  statuses: Type.Array(Type.Object({ client_id: Type.String(), status: AmlStatusSchema, outstanding: Type.Boolean() })),
});
export type AmlStatuses = Static<typeof AmlStatusesSchema>;

export const DeletableListSchema = Type.Object({
  items: Type.Array(
    Type.Object({ client_id: Type.String(), client_name: Type.String(), relationship_ended_on: IsoDate, keep_until: IsoDate }),
  ),
});
export type DeletableList = Static<typeof DeletableListSchema>;
export const DeletionListSchema = Type.Object({
  items: Type.Array(
    Type.Object({
      client_id: Type.String(),
      client_name: Type.String(),
      relationship_ended_on: IsoDate,
      deleted_by_name: Type.String(),
      deleted_at: Type.String(),
      evidence_documents: Type.Integer(),
    }),
  ),
});
export type DeletionList = Static<typeof DeletionListSchema>;
export const DeleteReplySchema = Type.Object({ success: Type.Boolean(), message: Type.String() });

export const AmlReportSchema = Type.Object({
  rows: Type.Array(
    Type.Object({ status: AmlStatusSchema, low: Type.Integer(), medium: Type.Integer(), high: Type.Integer(), none: Type.Integer() }),
  ),
});
export type AmlReport = Static<typeof AmlReportSchema>;

/** What the AML screens and answers say (one home for each text). */
export const AML_MESSAGES = {
  outstandingBadge: 'Due diligence outstanding',
  fileNotFound: 'No such client.',
  approvedIsReadOnly: 'This version is approved and cannot be changed; your change starts a new version.',
  notAwaitingApproval: 'Only a file awaiting approval can be approved.',
  submitNeedsPeople: 'Add at least one person to verify before asking for approval.',
  submitNeedsEvidence: (name: string) => `Add identity evidence for ${name} before asking for approval.`,
  submitNeedsRisk: 'Answer the risk questions before asking for approval.',
  personNotFound: 'No such person on this file.',
  evidenceOtherClient: 'That document is not identity evidence uploaded for this client.',
  mlroOnly: 'Only the MLRO (Money Laundering Reporting Officer) can approve a due diligence file.',
  readOnly: 'You can read this file but not change it.',
  retentionNotEnded: 'The client relationship has not ended: records are kept for five years after it ends (MLR 2017 reg. 40).',
  retentionRunning: (until: string) =>
    `Records must be kept until ${until}, five years after the client relationship ended (MLR 2017 reg. 40).`,
  confirmNameMismatch: 'Type the client’s name exactly to confirm the deletion.',
  deleted: 'The AML file and its evidence were deleted and the deletion recorded.',
  nothingToSubmit: 'This version is not a draft.',
} as const;
