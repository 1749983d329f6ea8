import { BUSINESS_TYPES } from '../constants.js';
import { COMPANY_LOOKUP_MESSAGES, COMPANY_LOOKUP_ROUTE } from './company-lookup.js';
import { PageNumber } from '../text.js';
import { Type, type Static, type TSchema } from '@sinclair/typebox';

// Contracts of the deadlines service (routes under /api/deadlines). Browser-safe.

export const DEADLINES_ROUTES = {
  /** GET: coming deadlines of every client the caller may see, filtered and paged. */
  list: '/api/deadlines',
  /** POST: mark one deadline done (staff with deadlines.manage). */
  done: (id: string) => `/api/deadlines/${id}/done`,
  /** GET / PUT: a client's tax profile and Companies House link; GET .../deadlines its deadlines. */
  client: (clientId: string) => `/api/deadlines/clients/${clientId}`,
  clientDeadlines: (clientId: string) => `/api/deadlines/clients/${clientId}/deadlines`,
  /** POST: read the company from Companies House now. */
  clientRefresh: (clientId: string) => `/api/deadlines/clients/${clientId}/refresh`,
  /** GET: the signed-in client's own next deadlines. */
  mine: '/api/deadlines/mine',
  /** GET: Companies House name search (staff). */
  companySearch: '/api/deadlines/companies-house/search',
  /** POST, no token (sign-up), rate limited per address: one company by its number (issue 33). */
  companyLookup: COMPANY_LOOKUP_ROUTE,
  /** GET: the caller's calendar feed address; POST .../reset: a new secret address. */
  calendar: '/api/deadlines/calendar',
  calendarReset: '/api/deadlines/calendar/reset',
  /** GET, no token (the secret in the address is the key): the iCalendar feed. */
  feed: (token: string) => `/api/deadlines/feed/${token}.ics`,
  /** GET / PUT (deadlines.manage): how many days ahead a task is opened. */
  settings: '/api/deadlines/settings',
} as const;

export const DEADLINE_KINDS = [
  { value: 'accounts', label: 'Annual accounts (Companies House)', group: 'company' },
  { value: 'confirmation_statement', label: 'Confirmation statement', group: 'company' },
  { value: 'ct_payment', label: 'Corporation Tax payment', group: 'company' },
  { value: 'ct600', label: 'Corporation Tax return (CT600)', group: 'company' },
  { value: 'vat_return', label: 'VAT return and payment', group: 'vat' },
  { value: 'sa_online_return', label: 'Self Assessment online return', group: 'self_assessment' },
  { value: 'sa_paper_return', label: 'Self Assessment paper return', group: 'self_assessment' },
  { value: 'sa_balancing_payment', label: 'Self Assessment balancing payment', group: 'self_assessment' },
  { value: 'sa_payment_on_account_1', label: 'Self Assessment first payment on account', group: 'self_assessment' },
  { value: 'sa_payment_on_account_2', label: 'Self Assessment second payment on account', group: 'self_assessment' },
  { value: 'paye_fps', label: 'PAYE Full Payment Submission (RTI)', group: 'paye' },
  { value: 'paye_payment', label: 'PAYE monthly payment', group: 'paye' },
  { value: 'p11d', label: 'P11D and P11D(b)', group: 'paye' },
  { value: 'class_1a_payment', label: 'Class 1A NIC payment', group: 'paye' },
  { value: 'mtd_quarterly_update', label: 'MTD Income Tax quarterly update', group: 'mtd' },
  { value: 'mtd_final_declaration', label: 'MTD Income Tax final declaration', group: 'mtd' },
  { value: 'identity_verification', label: 'Identity verification (Companies House)', group: 'company' },
] as const;
export type DeadlineKind = (typeof DEADLINE_KINDS)[number]['value'];
export const DEADLINE_KIND_VALUES: DeadlineKind[] = DEADLINE_KINDS.map((k) => k.value);
export function deadlineKindLabel(kind: string): string {
  return DEADLINE_KINDS.find((k) => k.value === kind)?.label ?? kind;
}

export const DEADLINE_STATUSES = [
  { value: 'upcoming', label: 'Upcoming' },
  { value: 'due_soon', label: 'Due soon' },
  { value: 'overdue', label: 'Overdue' },
  { value: 'done', label: 'Done' },
] as const;
export type DeadlineStatus = (typeof DEADLINE_STATUSES)[number]['value'];
/** A deadline is 'due soon' this many days ahead (and today). */
export const DUE_SOON_DAYS = 14;

export const DEADLINE_WINDOWS = ['30', '60', '90', 'overdue', 'all'] as const;
export type DeadlineWindow = (typeof DEADLINE_WINDOWS)[number];

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const IsoDate = Type.String({ format: 'date' });
const Uuid = Type.String({ format: 'uuid' });

export const DeadlineKindSchema = literals(DEADLINE_KIND_VALUES);
export const DeadlineStatusSchema = literals(DEADLINE_STATUSES.map((s) => s.value));

export const DeadlineSchema = Type.Object({
  id: Uuid,
  client_id: Type.String(),
  client_name: Type.String(),
  assigned_accountant_id: Nullable(Type.String()),
  kind: DeadlineKindSchema,
  /** What the deadline is for, e.g. 'Year ended 31 Mar 2026', 'Quarter ended 30 Jun 2026', '2025-26 Jane Smith'. */
  period: Type.String(),
  period_end: Nullable(IsoDate),
  due_on: IsoDate,
  status: DeadlineStatusSchema,
  /** Where the date comes from: Companies House's answer, HMRC's MTD obligations (issue 31) or the rule. */
  source: literals(['companies_house', 'rule', 'hmrc'] as const),
  done_at: Nullable(Type.String({ format: 'date-time' })),
  done_by_name: Nullable(Type.String()),
  /** A confirmation statement that cannot be filed yet: "blocked: 2 people not verified" (ECCTA 2023). */
  blocked: Type.Optional(Nullable(Type.String())),
  /** Issue 26: the filing record of a done deadline (absent on replies from before it). */
  done_by_id: Type.Optional(Nullable(Type.String())),
  filed_on: Type.Optional(Nullable(IsoDate)),
  reference: Type.Optional(Nullable(Type.String())),
  filed_by_previous_agent: Type.Optional(Type.Boolean()),
});
export type Deadline = Static<typeof DeadlineSchema>;

export const DeadlineListQuerySchema = Type.Object(
  {
    kind: Type.Optional(DeadlineKindSchema),
    client_id: Type.Optional(Type.String({ maxLength: 64 })),
    /** A team member's user id; 'none' for clients without an accountant. */
    assignee_id: Type.Optional(Type.String({ maxLength: 64 })),
    window: Type.Optional(literals(DEADLINE_WINDOWS)),
    /** Done deadlines are left out unless asked for. */
    include_done: Type.Optional(Type.Boolean()),
    /** The Done filter: 'done' lists only done deadlines (most recently filed first); 'open' (the default) only open ones. */
    status: Type.Optional(literals(['open', 'done'] as const)),
    page: PageNumber(),
    page_size: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  },
  { additionalProperties: false },
);
export type DeadlineListQuery = Static<typeof DeadlineListQuerySchema>;

export const DeadlineListSchema = Type.Object({
  deadlines: Type.Array(DeadlineSchema),
  /** Matching deadlines, counted up to 10,000 (total_capped then says there are more). */
  total: Type.Integer({ minimum: 0 }),
  total_capped: Type.Boolean(),
  page: Type.Integer({ minimum: 1 }),
  page_size: Type.Integer({ minimum: 1 }),
  /** Today in London, the day statuses are worked out from. */
  today: IsoDate,
});
export type DeadlineList = Static<typeof DeadlineListSchema>;

export const MarkDoneReplySchema = Type.Object({ deadline: DeadlineSchema, message: Type.String() });
export type MarkDoneReply = Static<typeof MarkDoneReplySchema>;

export const VAT_SCHEMES = [
  { value: 'none', label: 'Not VAT registered' },
  { value: 'stagger_1', label: 'Quarterly: Mar, Jun, Sep, Dec' },
  { value: 'stagger_2', label: 'Quarterly: Jan, Apr, Jul, Oct' },
  { value: 'stagger_3', label: 'Quarterly: Feb, May, Aug, Nov' },
  { value: 'monthly', label: 'Monthly' },
  { value: 'annual', label: 'Annual accounting' },
] as const;
export type VatScheme = (typeof VAT_SCHEMES)[number]['value'];

export const SA_TAXPAYER_ROLES = [
  { value: 'sole_trader', label: 'Sole trader' },
  { value: 'landlord', label: 'Landlord' },
  { value: 'partner', label: 'Partner' },
  { value: 'director', label: 'Director' },
] as const;
export type SaTaxpayerRole = (typeof SA_TAXPAYER_ROLES)[number]['value'];

export const COMPANY_TYPES = [
  { value: 'private', label: 'Private limited company or LLP' },
  { value: 'public', label: 'Public limited company' },
] as const;

export const SaTaxpayerSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$' }),
    name: Type.String({ minLength: 1, maxLength: 120 }),
    role: literals(SA_TAXPAYER_ROLES.map((r) => r.value)),
    /** Files a paper return (due 31 October) instead of online (31 January). */
    paper_return: Type.Boolean({ default: false }),
    /** Qualifying income (self-employment and property turnover, £) for MTD for Income Tax; sole traders and landlords only. */
    qualifying_income: Nullable(Type.Number({ minimum: 0, maximum: 1_000_000_000 })),
  },
  { additionalProperties: false },
);
export type SaTaxpayer = Static<typeof SaTaxpayerSchema>;

/** What staff record per client; every field editable in the client's record. */
export const TaxProfileInputSchema = Type.Object(
  {
    company_number: Nullable(Type.String({ maxLength: 20 })),
    /** The day the practice took the client on: deadlines due before it may be marked filed by the previous agent (issue 26). */
    engagement_start_on: Type.Optional(Nullable(IsoDate)),
    company_type: literals(['private', 'public'] as const),
    incorporation_date: Nullable(IsoDate),
    /** Accounting reference date: day and month the financial year ends. */
    ard_day: Nullable(Type.Integer({ minimum: 1, maximum: 31 })),
    ard_month: Nullable(Type.Integer({ minimum: 1, maximum: 12 })),
    /** Last accounts made up to (where not linked to Companies House). */
    last_accounts_made_up_to: Nullable(IsoDate),
    /** Confirmation statement review date (where not linked). */
    confirmation_review_date: Nullable(IsoDate),
    vat_scheme: literals(VAT_SCHEMES.map((v) => v.value)),
    /** Month the annual VAT accounting period ends (annual scheme only). */
    vat_annual_end_month: Nullable(Type.Integer({ minimum: 1, maximum: 12 })),
    paye_scheme: Type.Boolean(),
    /** Day of the month employees are paid (31 = the last day). */
    paye_payday: Nullable(Type.Integer({ minimum: 1, maximum: 31 })),
    sa_taxpayers: Type.Array(SaTaxpayerSchema, { maxItems: 20 }),
  },
  { additionalProperties: false },
);
export type TaxProfileInput = Static<typeof TaxProfileInputSchema>;

/**
 * identity_verification_details of an officer or PSC (Companies House Public Data API, ECCTA 2023):
 * absent means "not known yet", not "not required".
 */
export const IdentityVerificationDetailsSchema = Type.Object({
  identity_verified_on: Nullable(Type.String()),
  appointment_verification_statement_due_on: Nullable(Type.String()),
  appointment_verification_start_on: Nullable(Type.String()),
  appointment_verification_end_on: Nullable(Type.String()),
  authorised_corporate_service_provider_name: Nullable(Type.String()),
  anti_money_laundering_supervisory_bodies: Type.Array(Type.String()),
  preferred_name: Nullable(Type.String()),
  /** PSCs only. */
  appointment_verification_statement_date: Nullable(Type.String()),
});
export type IdentityVerificationDetails = Static<typeof IdentityVerificationDetailsSchema>;

/** Month and year of birth as Companies House publishes them (never the day). */
const BirthMonthSchema = Type.Object({ month: Type.Integer(), year: Type.Integer() });

export const CompanyOfficerSchema = Type.Object({
  name: Type.String(),
  officer_role: Type.String(),
  appointed_on: Nullable(Type.String()),
  resigned_on: Nullable(Type.String()),
  // Optional: snapshots cached and events sent before identity verification carry neither.
  date_of_birth: Type.Optional(Nullable(BirthMonthSchema)),
  identity_verification_details: Type.Optional(Nullable(IdentityVerificationDetailsSchema)),
});
export type CompanyOfficer = Static<typeof CompanyOfficerSchema>;

export const CompanyPscSchema = Type.Object({
  name: Type.String(),
  kind: Type.String(),
  notified_on: Nullable(Type.String()),
  ceased_on: Nullable(Type.String()),
  natures_of_control: Type.Array(Type.String()),
  date_of_birth: Type.Optional(Nullable(BirthMonthSchema)),
  identity_verification_details: Type.Optional(Nullable(IdentityVerificationDetailsSchema)),
});
export type CompanyPsc = Static<typeof CompanyPscSchema>;

/** What Companies House said about the company at the last refresh. */
export const CompanySnapshotSchema = Type.Object({
  company_number: Type.String(),
  company_name: Type.String(),
  company_status: Type.String(),
  company_type: Type.String(),
  date_of_creation: Nullable(IsoDate),
  registered_office: Type.String(),
  sic_codes: Type.Array(Type.String()),
  accounting_reference_date: Nullable(Type.Object({ day: Type.Integer(), month: Type.Integer() })),
  next_accounts_period_end_on: Nullable(IsoDate),
  next_accounts_due_on: Nullable(IsoDate),
  last_accounts_made_up_to: Nullable(IsoDate),
  confirmation_statement_next_due: Nullable(IsoDate),
  confirmation_statement_next_made_up_to: Nullable(IsoDate),
  officers: Type.Array(CompanyOfficerSchema),
  pscs: Type.Array(CompanyPscSchema),
  refreshed_at: Type.String({ format: 'date-time' }),
});
export type CompanySnapshot = Static<typeof CompanySnapshotSchema>;

export const ClientTaxRecordSchema = Type.Object({
  client_id: Type.String(),
  client_name: Type.String(),
  business_type: Nullable(Type.String()),
  profile: TaxProfileInputSchema,
  /** Whether COMPANIES_HOUSE_API_KEY is set: without it the company fields are entered by hand. */
  companies_house_configured: Type.Boolean(),
  company: Nullable(CompanySnapshotSchema),
  /** The last refresh's problem, if it failed (the company number unknown, Companies House unavailable). */
  company_error: Nullable(Type.String()),
  updated_at: Nullable(Type.String({ format: 'date-time' })),
  updated_by_name: Nullable(Type.String()),
});
export type ClientTaxRecord = Static<typeof ClientTaxRecordSchema>;

export const ClientTaxSaveReplySchema = Type.Object({ record: ClientTaxRecordSchema, message: Type.String() });

export const ClientDeadlinesSchema = Type.Object({ deadlines: Type.Array(DeadlineSchema), today: IsoDate });
export type ClientDeadlines = Static<typeof ClientDeadlinesSchema>;

export const CompanySearchQuerySchema = Type.Object({ q: Type.String({ minLength: 1, maxLength: 160 }) }, { additionalProperties: false });
export const CompanySearchResultSchema = Type.Object({
  items: Type.Array(
    Type.Object({
      company_number: Type.String(),
      title: Type.String(),
      company_status: Type.String(),
      date_of_creation: Nullable(Type.String()),
      address_snippet: Type.String(),
    }),
  ),
});
export type CompanySearchResult = Static<typeof CompanySearchResultSchema>;

/** POST companyLookup: the number a new client typed (checked with validateCompanyNumber). */
export const CompanyLookupBodySchema = Type.Object(
  { company_number: Type.String({ minLength: 1, maxLength: 20 }) },
  { additionalProperties: false },
);
/** What the public register says about it: only what the sign-up form shows or fills in. */
export const CompanyLookupSchema = Type.Object({
  company_number: Type.String(),
  company_name: Type.String(),
  company_status: Type.String(),
  /** Companies House's company type (ltd, llp, plc, ...). */
  company_type: Type.String(),
  /** Our business type for it, when it is one we serve as such (ltd → limited, llp → llp). */
  business_type: Nullable(Type.Union(BUSINESS_TYPES.map((b) => Type.Literal(b)))),
  incorporated_on: Nullable(Type.String()),
});
export type CompanyLookup = Static<typeof CompanyLookupSchema>;

export const CalendarFeedSchema = Type.Object({
  /** The secret address (shown once after a reset; otherwise null when none exists yet or only the hash is kept). */
  url: Nullable(Type.String()),
  has_feed: Type.Boolean(),
  created_at: Nullable(Type.String({ format: 'date-time' })),
});
export type CalendarFeed = Static<typeof CalendarFeedSchema>;
export const FeedParamsSchema = Type.Object({ token: Type.String({ minLength: 10, maxLength: 100, pattern: '^[A-Za-z0-9_-]+\\.ics$' }) });

/** Task opening ahead of a deadline (kept by the deadlines service: docs/decisions.md). */
export const DeadlineSettingsSchema = Type.Object({
  task_lead_days: Type.Integer({ minimum: 1, maximum: 365 }),
});
export type DeadlineSettings = Static<typeof DeadlineSettingsSchema>;
export const DEFAULT_TASK_LEAD_DAYS = 30;

/** Making Tax Digital for Income Tax: qualifying income above which a sole trader or landlord is in from 6 April of the year. */
export const MTD_ITSA_THRESHOLDS = [
  { fromTaxYear: 2026, above: 50_000 },
  { fromTaxYear: 2027, above: 30_000 },
  { fromTaxYear: 2028, above: 20_000 },
] as const;

export const DEADLINES_MESSAGES = {
  markedDone: 'Deadline marked as done',
  alreadyDone: 'This deadline was already marked as done',
  profileSaved: 'Tax profile saved',
  clientNotFound: 'Client not found',
  deadlineNotFound: 'Deadline not found',
  companyNumberInvalid: 'Enter a Companies House number: 8 characters, like 09876543 or SC123456',
  companyNotFound: COMPANY_LOOKUP_MESSAGES.companyNotFound,
  lookupNotAvailable: COMPANY_LOOKUP_MESSAGES.lookupNotAvailable,
  companiesHouseNotConfigured: 'The Companies House link is not configured: enter the company details by hand',
  companiesHouseUnavailable: 'Companies House did not answer; try again in a few minutes',
  ardIncomplete: 'Enter both the day and the month of the accounting reference date',
  ardInvalid: 'That accounting reference date does not exist',
  vatAnnualMonth: 'Choose the month the annual VAT period ends',
  payday: 'Enter the payday (day of the month) for the PAYE scheme',
  taxpayerIds: 'Each Self Assessment taxpayer needs a different id',
  feedReset: 'A new calendar address was made; the old one no longer works',
  settingsSaved: 'Deadline settings saved',
  notConfiguredLink: 'Companies House link not configured',
} as const;

export const TaxProfileDefaults: TaxProfileInput = {
  company_number: null,
  company_type: 'private',
  incorporation_date: null,
  ard_day: null,
  ard_month: null,
  last_accounts_made_up_to: null,
  confirmation_review_date: null,
  vat_scheme: 'none',
  vat_annual_end_month: null,
  paye_scheme: false,
  paye_payday: null,
  sa_taxpayers: [],
};

/**
 * Companies House numbers: 8 characters, digits (short ones padded with zeros) or a prefix (SC, NI,
 * OC, SO, NC, R...) then digits. Null when it cannot be a company number.
 */
export function normaliseCompanyNumber(raw: string): string | null {
  const s = raw.trim().toUpperCase().replace(/\s+/g, '');
  if (/^\d{1,8}$/.test(s)) return s.padStart(8, '0');
  if (/^[A-Z]{2}\d{6}$/.test(s) || /^[A-Z]\d{7}$/.test(s)) return s;
  return null;
}

export interface ProfileProblem {
  path: string;
  message: string;
}

/** The form's rules, shared by the page and the service. */
export function validateTaxProfile(p: TaxProfileInput): ProfileProblem[] {
  const out: ProfileProblem[] = [];
  if (p.company_number !== null && p.company_number.trim() !== '' && normaliseCompanyNumber(p.company_number) === null)
    out.push({ path: '/company_number', message: DEADLINES_MESSAGES.companyNumberInvalid });
  if ((p.ard_day === null) !== (p.ard_month === null)) out.push({ path: '/ard_day', message: DEADLINES_MESSAGES.ardIncomplete });
  if (p.ard_day !== null && p.ard_month !== null) {
    // 29 February is allowed (a leap-year end falls back to the 28th in other years).
    const max = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][p.ard_month - 1]!;
    if (p.ard_day > max) out.push({ path: '/ard_day', message: DEADLINES_MESSAGES.ardInvalid });
  }
  if (p.vat_scheme === 'annual' && p.vat_annual_end_month === null)
    out.push({ path: '/vat_annual_end_month', message: DEADLINES_MESSAGES.vatAnnualMonth });
  if (p.paye_scheme && p.paye_payday === null) out.push({ path: '/paye_payday', message: DEADLINES_MESSAGES.payday });
  const ids = new Set(p.sa_taxpayers.map((t) => t.id));
  if (ids.size !== p.sa_taxpayers.length) out.push({ path: '/sa_taxpayers', message: DEADLINES_MESSAGES.taxpayerIds });
  return out;
}
