import { Type, type Static } from '@sinclair/typebox';
import { PackageNameSchema } from '../billing/billing.js';
import { SafeString, SafeText } from '../text.js';

// Contracts of the engagement service (routes under /api/engagement). Browser-safe.

export const ENGAGEMENT_ROUTES = {
  /** GET: the signed-in client's letters (the one to sign, if any, and every version). */
  mine: '/api/engagement/mine',
  /** POST: terms before payment (issue 33): the letter for the package the client chose. */
  terms: '/api/engagement/terms',
  /** GET: one letter with its text (a view is audited). */
  letter: (id: string) => `/api/engagement/letters/${encodeURIComponent(id)}`,
  /** POST: sign a letter (the client who owns it). */
  sign: (id: string) => `/api/engagement/letters/${encodeURIComponent(id)}/sign`,
  /** GET: the signed PDF, never changed after signing. */
  pdf: (id: string) => `/api/engagement/letters/${encodeURIComponent(id)}/pdf`,
  /** GET: a letter's audit trail (send, view, sign, reminders). */
  audit: (id: string) => `/api/engagement/letters/${encodeURIComponent(id)}/audit`,
  /** GET: a client's letter status and versions; POST .../send: send a new version. */
  client: (clientId: string) => `/api/engagement/clients/${encodeURIComponent(clientId)}`,
  clientSend: (clientId: string) => `/api/engagement/clients/${encodeURIComponent(clientId)}/send`,
  /** GET: every visible client's letter status (client list badges). */
  statuses: '/api/engagement/statuses',
  /** GET: the control panel's count of clients awaiting signature. */
  overview: '/api/engagement/overview',
  /** GET / PUT: the practice's templates; POST .../send: send the current templates to every client on older ones. */
  templates: '/api/engagement/templates',
  templatesSend: '/api/engagement/templates/send',
} as const;

export const LETTER_STATUSES = ['not_sent', 'awaiting_signature', 'signed', 'superseded'] as const;
export type LetterStatus = (typeof LETTER_STATUSES)[number];
export const LETTER_STATUS_LABELS: Record<LetterStatus, string> = {
  not_sent: 'Not sent',
  awaiting_signature: 'Awaiting signature',
  signed: 'Signed',
  superseded: 'Superseded',
};
export const LetterStatusSchema = Type.Union(LETTER_STATUSES.map((s) => Type.Literal(s)));

export const LETTER_REASONS = ['onboarding', 'package_changed', 'template_changed', 'sent_by_practice'] as const;
export type LetterReason = (typeof LETTER_REASONS)[number];
export const LETTER_REASON_LABELS: Record<LetterReason, string> = {
  onboarding: 'New client',
  package_changed: 'Package changed',
  template_changed: 'New terms',
  sent_by_practice: 'Sent by the practice',
};
export const LetterReasonSchema = Type.Union(LETTER_REASONS.map((s) => Type.Literal(s)));

/** The placeholders a template may use; anything else in double braces is refused on save. */
export const LETTER_PLACEHOLDERS = [
  { key: 'practice_name', label: "The practice's name" },
  { key: 'practice_email', label: "The practice's e-mail" },
  { key: 'practice_phone', label: "The practice's phone" },
  { key: 'client_name', label: "The client's business name" },
  { key: 'contact_name', label: "The client's contact name" },
  { key: 'client_email', label: "The client's e-mail" },
  { key: 'package', label: 'The package' },
  { key: 'monthly_fee', label: 'The monthly fee (e.g. £100.00)' },
  { key: 'start_date', label: 'The start date (e.g. 31 Dec 2026)' },
] as const;
export type LetterPlaceholder = (typeof LETTER_PLACEHOLDERS)[number]['key'];

/** Reminder e-mails chase an unsigned letter this many days after it was sent (London dates). */
export const REMINDER_DAYS = [3, 7] as const;
/** Consumer Contracts Regulations 2013 reg. 30(3)(a): 14 days after the day the contract is entered into. */
export const CANCELLATION_DAYS = 14;

export const MAX_TEMPLATE_SECTION = 20_000;

export const TemplateSetSchema = Type.Object(
  {
    terms: SafeText({ minLength: 1, maxLength: MAX_TEMPLATE_SECTION }),
    privacy: SafeText({ minLength: 1, maxLength: MAX_TEMPLATE_SECTION }),
    cancellation: SafeText({ minLength: 1, maxLength: MAX_TEMPLATE_SECTION }),
    /** One schedule of services per package name (every package must have one). */
    schedules: Type.Record(Type.String({ minLength: 1, maxLength: 100 }), SafeText({ minLength: 1, maxLength: MAX_TEMPLATE_SECTION })),
  },
  { additionalProperties: false },
);
export type TemplateSet = Static<typeof TemplateSetSchema>;

export const TemplatesSchema = Type.Object({
  version: Type.Integer({ minimum: 1 }),
  templates: TemplateSetSchema,
  updated_at: Type.String(),
  updated_by_name: Type.Union([Type.String(), Type.Null()]),
  /** Clients whose newest letter was made from older templates (what 'Send the new terms' would reach). */
  clients_on_older_version: Type.Integer({ minimum: 0 }),
});
export type Templates = Static<typeof TemplatesSchema>;

export const TemplatesSaveBodySchema = Type.Object(
  { version: Type.Integer({ minimum: 1 }), templates: TemplateSetSchema },
  { additionalProperties: false },
);
export type TemplatesSaveBody = Static<typeof TemplatesSaveBodySchema>;

export const TemplatesSaveReplySchema = Type.Object({ templates: TemplatesSchema, message: Type.String() });
export const SendReplySchema = Type.Object({ sent: Type.Integer({ minimum: 0 }), message: Type.String() });
export type SendReply = Static<typeof SendReplySchema>;

export const SignatureSchema = Type.Object({
  signer_name: Type.String(),
  signer_email: Type.String(),
  signed_at: Type.String(),
  ip: Type.Union([Type.String(), Type.Null()]),
  user_agent: Type.Union([Type.String(), Type.Null()]),
  pdf_sha256: Type.String(),
  document_id: Type.String(),
  cancellation_ends_on: Type.Union([Type.String(), Type.Null()]),
});

export const LetterSummarySchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  client_id: Type.String(),
  version: Type.Integer({ minimum: 1 }),
  status: LetterStatusSchema,
  reason: LetterReasonSchema,
  package_name: Type.String(),
  monthly_fee: Type.Number(),
  is_consumer: Type.Boolean(),
  template_version: Type.Integer(),
  text_sha256: Type.String(),
  sent_at: Type.String(),
  signed_at: Type.Union([Type.String(), Type.Null()]),
  signer_name: Type.Union([Type.String(), Type.Null()]),
  document_id: Type.Union([Type.String(), Type.Null()]),
});
export type LetterSummary = Static<typeof LetterSummarySchema>;

export const LetterSchema = Type.Composite([
  LetterSummarySchema,
  Type.Object({ text: Type.String(), client_name: Type.String(), signature: Type.Union([SignatureSchema, Type.Null()]) }),
]);
export type Letter = Static<typeof LetterSchema>;

export const ClientLettersSchema = Type.Object({
  client_id: Type.String(),
  client_name: Type.String(),
  status: LetterStatusSchema,
  current: Type.Union([LetterSummarySchema, Type.Null()]),
  letters: Type.Array(LetterSummarySchema),
});
export type ClientLetters = Static<typeof ClientLettersSchema>;

/** The signed-in client: the letter to sign now (with its text), and every version. */
export const MyLettersSchema = Type.Object({
  clients: Type.Array(
    Type.Object({
      client_id: Type.String(),
      client_name: Type.String(),
      status: LetterStatusSchema,
      to_sign: Type.Union([LetterSchema, Type.Null()]),
      letters: Type.Array(LetterSummarySchema),
    }),
  ),
});
export type MyLetters = Static<typeof MyLettersSchema>;

export const LetterStatusesSchema = Type.Object({
  statuses: Type.Array(
    Type.Object({
      client_id: Type.String(),
      client_name: Type.String(),
      status: LetterStatusSchema,
      version: Type.Integer(),
      signed_at: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});
export type LetterStatuses = Static<typeof LetterStatusesSchema>;

export const EngagementOverviewSchema = Type.Object({ awaiting_signature: Type.Integer({ minimum: 0 }) });
export type EngagementOverview = Static<typeof EngagementOverviewSchema>;

export const SIGNER_NAME_MAX = 120;
export const SignBodySchema = Type.Object(
  {
    full_name: SafeString({ minLength: 1, maxLength: SIGNER_NAME_MAX }),
    agree: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type SignBody = Static<typeof SignBodySchema>;

export const SignReplySchema = Type.Object({ letter: LetterSchema, message: Type.String() });
export type SignReply = Static<typeof SignReplySchema>;

/** Terms before payment (issue 33): the letter for the package the client chose, made if needed. */
export const TermsBodySchema = Type.Object({ package_name: PackageNameSchema }, { additionalProperties: false });
export type TermsBody = Static<typeof TermsBodySchema>;
/** The letter for that package (its text to read and sign), and whether it is already accepted. */
export const TermsReplySchema = Type.Object({ letter: LetterSchema, accepted: Type.Boolean() });
export type TermsReply = Static<typeof TermsReplySchema>;

export const LetterAuditEntrySchema = Type.Object({
  action: Type.Union([
    Type.Literal('send'),
    Type.Literal('view'),
    Type.Literal('sign'),
    Type.Literal('download'),
    Type.Literal('reminder'),
  ]),
  principal_name: Type.String(),
  principal_kind: Type.String(),
  ip: Type.Union([Type.String(), Type.Null()]),
  user_agent: Type.Union([Type.String(), Type.Null()]),
  detail: Type.Union([Type.String(), Type.Null()]),
  at: Type.String(),
});
export const LetterAuditListSchema = Type.Object({ entries: Type.Array(LetterAuditEntrySchema) });
export type LetterAuditList = Static<typeof LetterAuditListSchema>;

export const ENGAGEMENT_MESSAGES = {
  checklistItem: 'Sign your engagement letter',
  signed: 'Thank you: your engagement letter is signed. A copy is in your documents.',
  templatesSaved: 'Letter templates saved',
  sentOne: 'A new engagement letter was sent for signature',
  sentMany: (n: number) => (n === 1 ? 'New terms sent to 1 client' : `New terms sent to ${n} clients`),
  letterNotFound: 'Engagement letter not found',
  clientNotFound: 'Client not found',
  alreadySigned: 'This letter is already signed. A signed letter is never changed: the practice sends a new version instead.',
  superseded: 'A newer version of this letter has been sent: please sign that one.',
  notYours: 'Only the client can sign their own engagement letter.',
  mustAgree: 'Please tick the box to agree to the terms.',
  nameRequired: 'Please type your full name.',
  nameNotPrintable: 'Please type your name in Latin letters (the signed PDF prints it exactly as typed).',
  noPackage: 'This client has no package yet, so there is no letter to send.',
  noAccount: 'This client has no sign-in account yet, so they cannot sign a letter.',
  unchanged: 'The client already has this letter awaiting signature.',
  unknownPlaceholder: (name: string) => `Unknown placeholder {{${name}}}`,
  missingSchedule: (pkg: string) => `A schedule of services is needed for ${pkg}`,
  notPrintable: 'Use only characters the PDF can print (Latin letters, digits, £, € and common punctuation).',
  pdfNotReady: 'The signed PDF is not ready yet.',
  accountNotReady: 'Your account is still being set up. Please try again in a moment.',
  termsHeading: (pkg: string) => `Your engagement letter for the ${pkg} package`,
} as const;
