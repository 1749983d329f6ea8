import { Type, type Static, type TSchema } from '@sinclair/typebox';

// HTTP contracts of Making Tax Digital for Income Tax (issue 31), served by the integrations service
// under /api/integrations/mtd. Browser-safe. Amounts in GBP (pounds, two decimals), dates en-GB on
// screen and ISO (YYYY-MM-DD) on the wire.

const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Number> | ReturnType<typeof Type.Integer>>(s: T) =>
  Type.Union([s, Type.Null()]);
// a real calendar day (ajv-formats' full 'date': 2026-02-30 and 8637-88-16 are a 400 at the edge, not a 500 from PostgreSQL)
const IsoDate = Type.String({ format: 'date' });

export const MTD_ROUTES = {
  page: '/work/mtd',
  callback: '/api/integrations/mtd/callback',
  connection: '/api/integrations/mtd/connection',
  arn: '/api/integrations/mtd/connection/arn',
  connect: '/api/integrations/mtd/connect',
  overview: '/api/integrations/mtd/overview',
  refreshDue: '/api/integrations/mtd/obligations/refresh-due',
  client: (id: string) => `/api/integrations/mtd/clients/${encodeURIComponent(id)}`,
} as const;

/** A National Insurance number as HMRC's APIs take it (AA999999A; no spaces). */
export const NINO_PATTERN = '^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z][0-9]{6}[A-D]$';
/** A UK postcode (the known fact of an MTD-IT authorisation request). */
export const POSTCODE_PATTERN = '^[A-Za-z]{1,2}[0-9][0-9A-Za-z]? ?[0-9][A-Za-z]{2}$';
/** An Agent Reference Number (HMRC's examples: AARN9999999). */
export const ARN_PATTERN = '^[A-Z]ARN[0-9]{7}$';
export const TAX_YEAR_PATTERN = '^20[0-9]{2}-[0-9]{2}$';

export const MTD_AGENT_TYPES = ['main', 'supporting'] as const;
export type MtdAgentType = (typeof MTD_AGENT_TYPES)[number];
/** HMRC's invitation statuses (Agent Authorisation API 2.0) plus our own before the first answer. */
export const MTD_AUTH_STATUSES = ['Pending', 'Accepted', 'Rejected', 'Expired', 'Cancelled', 'Deauthorised', 'Partialauth'] as const;
export type MtdAuthStatus = (typeof MTD_AUTH_STATUSES)[number];

export const MTD_TEXTS = {
  notConfigured: 'HMRC is not configured on this server. Please ask the practice to set HMRC_CLIENT_ID and HMRC_CLIENT_SECRET.',
  notConnected: 'The practice is not connected to HMRC. A manager must connect the practice’s agent account first.',
  needsReconnect: 'HMRC refused the practice’s connection (expired or revoked). Please reconnect to HMRC.',
  noArn: 'Enter the practice’s Agent Reference Number in MTD settings first.',
  noIdentifiers: 'Enter the client’s National Insurance number and postcode first.',
  notAuthorised: 'This client has not authorised the practice for Making Tax Digital yet.',
  authorisationNotFound: 'Authorisation request not found',
  cannotCancel: 'Only a pending authorisation request can be cancelled.',
  reviewChanged: 'The figures changed since they were reviewed. Review them again before sending.',
  confirmRequired: 'Confirm that the figures are correct before sending them to HMRC.',
  hmrcRefused: (status: number) => `HMRC refused the request (HTTP ${status}).`,
  hmrcUnavailable: 'HMRC could not be reached. Please try again later.',
  fraudHeadersMissing: 'Your browser did not send the device details HMRC requires. Reload the page and try again.',
  connected: 'Connected to HMRC',
  connectFailed: 'Could not connect to HMRC',
  noLedger: 'This client has no Xero or QuickBooks connected. Enter the figures, or ask the client to connect their software.',
  ledgerReconnect: (provider: string) =>
    `${provider} refused to give its profit and loss report (the connection expired or does not allow reports). Ask the client to connect ${provider} again.`,
  ledgerUnavailable: (provider: string) => `${provider} could not be reached. Please try again later.`,
  ledgerPeriod: 'The period must end inside the tax year, on or after 6 April.',
  mappingsSaved: 'Category mapping saved',
  finalTooEarly: (taxYear: string) =>
    `A final declaration for ${taxYear} can be made only after the tax year ends on 5 April ${Number(taxYear.slice(0, 4)) + 1}.`,
  finalNeedsCalculation: 'Calculate the final figures first: the declaration agrees to that calculation.',
  finalApprovalRequired: 'Confirm that the client has seen and approved the calculation and the information filed.',
  /** HMRC's declaration for an agent submitting a final declaration (shown before submitting; the agent confirms it). */
  finalDeclarationStatement:
    'I confirm that my client has received a copy of all the information being filed and approved the information as being correct and complete to the best of their knowledge and belief. My client understands that they may have to pay financial penalties and face prosecution if they give false information.',
} as const;

/**
 * What the staff member's browser reports for HMRC's fraud prevention headers (connection method
 * WEB_APP_VIA_SERVER): the server adds its own half (public IP and port, vendor details).
 */
export const MtdDeviceSchema = Type.Object({
  userAgent: Type.String({ minLength: 1, maxLength: 1000 }),
  deviceId: Type.String({ format: 'uuid' }),
  screens: Type.Array(
    Type.Object({
      width: Type.Integer({ minimum: 1 }),
      height: Type.Integer({ minimum: 1 }),
      // (minimum, not exclusiveMinimum: the OpenAPI 3.0 document takes only its boolean form)
      scalingFactor: Type.Number({ minimum: 0.01 }),
      colourDepth: Type.Integer({ minimum: 1 }),
    }),
    { minItems: 1, maxItems: 16 },
  ),
  windowSize: Type.Object({ width: Type.Integer({ minimum: 1 }), height: Type.Integer({ minimum: 1 }) }),
  /** Minutes east of UTC (the negation of JavaScript's getTimezoneOffset()). */
  utcOffsetMinutes: Type.Integer({ minimum: -840, maximum: 840 }),
});
export type MtdDevice = Static<typeof MtdDeviceSchema>;

export const MtdConnectionSchema = Type.Object({
  configured: Type.Boolean(),
  connected: Type.Boolean(),
  needsReconnect: Type.Boolean(),
  arn: Nullable(Type.String()),
  connectedAt: Nullable(Type.String()),
});
export type MtdConnection = Static<typeof MtdConnectionSchema>;

export const MtdArnBodySchema = Type.Object({ arn: Type.String({ pattern: ARN_PATTERN }) }, { additionalProperties: false });

export const MtdIdentifiersBodySchema = Type.Object(
  { nino: Type.String({ pattern: NINO_PATTERN }), postcode: Type.String({ pattern: POSTCODE_PATTERN }) },
  { additionalProperties: false },
);

export const MtdIncomeBodySchema = Type.Object(
  { taxYear: Type.String({ pattern: TAX_YEAR_PATTERN }), amount: Type.Number({ minimum: 0, maximum: 1e10 }) },
  { additionalProperties: false },
);

export const MtdExemptionBodySchema = Type.Object(
  { reason: Type.Union([Type.String({ minLength: 3, maxLength: 500 }), Type.Null()]) },
  { additionalProperties: false },
);

export const MtdAuthorisationRequestBodySchema = Type.Object(
  { agentType: Type.Union(MTD_AGENT_TYPES.map((t) => Type.Literal(t))) },
  { additionalProperties: false },
);

export const MtdAuthorisationSchema = Type.Object({
  id: Type.String(),
  clientId: Type.String(),
  agentType: Type.String(),
  invitationId: Type.String(),
  status: Type.String(),
  /** The link the client opens to accept (HMRC's clientActionUrl), once read back. */
  clientActionUrl: Nullable(Type.String()),
  expiresOn: IsoDate,
  requestedAt: Type.String(),
  checkedAt: Nullable(Type.String()),
});
export type MtdAuthorisation = Static<typeof MtdAuthorisationSchema>;

export const MtdObligationSchema = Type.Object({
  kind: Type.Union([Type.Literal('quarterly'), Type.Literal('final_declaration')]),
  businessId: Nullable(Type.String()),
  typeOfBusiness: Nullable(Type.String()),
  periodStartDate: IsoDate,
  periodEndDate: IsoDate,
  dueDate: IsoDate,
  /** HMRC's: open | fulfilled. */
  status: Type.String(),
  receivedDate: Nullable(Type.String()),
  /** open past its due date (today, London). */
  overdue: Type.Boolean(),
});
export type MtdObligation = Static<typeof MtdObligationSchema>;

export const MtdBusinessSchema = Type.Object({
  businessId: Type.String(),
  typeOfBusiness: Type.String(),
  tradingName: Nullable(Type.String()),
});

export const MtdScopeSchema = Type.Object({
  /** 'now' (from 6 April 2026), 'april_2027', 'april_2028', or null (not mandated on what is recorded). */
  mandatedFrom: Nullable(Type.String()),
  mandatedFromDate: Nullable(IsoDate),
  /** The letter the client should get. */
  letter: Nullable(Type.String()),
  exemptionReason: Nullable(Type.String()),
  reason: Type.String(),
});
export type MtdScope = Static<typeof MtdScopeSchema>;

export const MtdSubmissionSchema = Type.Object({
  id: Type.String(),
  businessId: Type.String(),
  taxYear: Type.String(),
  periodStartDate: IsoDate,
  periodEndDate: IsoDate,
  hmrcStatus: Type.Integer(),
  correlationId: Nullable(Type.String()),
  submittedAt: Type.String(),
  submittedBy: Type.String(),
  calculationId: Nullable(Type.String()),
});
export type MtdSubmission = Static<typeof MtdSubmissionSchema>;

/** A final declaration HMRC accepted (the receipt). */
export const MtdFinalDeclarationSchema = Type.Object({
  id: Type.String(),
  taxYear: Type.String(),
  calculationId: Type.String(),
  hmrcStatus: Type.Integer(),
  correlationId: Nullable(Type.String()),
  submittedAt: Type.String(),
  submittedBy: Type.String(),
});
export type MtdFinalDeclaration = Static<typeof MtdFinalDeclarationSchema>;

export const MtdClientSchema = Type.Object({
  clientId: Type.String(),
  companyName: Type.String(),
  nino: Nullable(Type.String()),
  postcode: Nullable(Type.String()),
  incomes: Type.Array(Type.Object({ taxYear: Type.String(), amount: Type.Number(), recordedAt: Type.String() })),
  scope: MtdScopeSchema,
  authorisation: Type.Union([MtdAuthorisationSchema, Type.Null()]),
  businesses: Type.Array(MtdBusinessSchema),
  obligations: Type.Array(MtdObligationSchema),
  obligationsRefreshedAt: Nullable(Type.String()),
  submissions: Type.Array(MtdSubmissionSchema),
  finalDeclarations: Type.Array(MtdFinalDeclarationSchema),
});
export type MtdClient = Static<typeof MtdClientSchema>;

/** A TypeBox property for each field, in the list's order: the schema of a group of HMRC's fields. */
function propertiesOf<K extends string, S extends TSchema>(fields: readonly K[], schemaOf: (field: K) => S): Record<K, S> {
  // Object.fromEntries types its result by string keys; it holds one entry for each field.
  return Object.fromEntries(fields.map((f) => [f, schemaOf(f)])) as Record<K, S>;
}
const money = Type.Number({ minimum: -99999999999.99, maximum: 99999999999.99 });

/** Self Employment Business API 5.0 cumulative period summary: income and HMRC's expense categories. */
export const MTD_EXPENSE_CATEGORIES = [
  'costOfGoods',
  'paymentsToSubcontractors',
  'wagesAndStaffCosts',
  'carVanTravelExpenses',
  'premisesRunningCosts',
  'maintenanceCosts',
  'adminCosts',
  'businessEntertainmentCosts',
  'advertisingCosts',
  'interestOnBankOtherLoans',
  'financeCharges',
  'irrecoverableDebts',
  'professionalFees',
  'depreciation',
  'otherExpenses',
] as const;
export type MtdExpenseCategory = (typeof MTD_EXPENSE_CATEGORIES)[number];

export const MtdUpdateFiguresSchema = Type.Object(
  {
    businessId: Type.String({ pattern: '^X[A-Z0-9]{1}IS[0-9]{11}$' }),
    taxYear: Type.String({ pattern: TAX_YEAR_PATTERN }),
    periodEndDate: IsoDate,
    turnover: Type.Number({ minimum: 0, maximum: 99999999999.99 }),
    other: Type.Number({ minimum: 0, maximum: 99999999999.99 }),
    expenses: Type.Partial(Type.Object(propertiesOf(MTD_EXPENSE_CATEGORIES, () => money))),
    device: MtdDeviceSchema,
  },
  { additionalProperties: false },
);
export type MtdUpdateFigures = Static<typeof MtdUpdateFiguresSchema>;

/**
 * Where a ledger account's figure goes in the cumulative update (issue 31, item 6): income to turnover
 * or other income, an expense to one of HMRC's categories, or left out (a balance-sheet style or drawings
 * account that a P&L report can still show, e.g. a director's own costs).
 */
export const MTD_LEDGER_CATEGORIES = ['turnover', 'other', ...MTD_EXPENSE_CATEGORIES, 'exclude'] as const;
export type MtdLedgerCategory = (typeof MTD_LEDGER_CATEGORIES)[number];

/** How the profit and loss counts: cash basis (the default for the self-employed from 2024-25) or accruals. */
export const MTD_LEDGER_BASES = ['cash', 'accruals'] as const;
export type MtdLedgerBasis = (typeof MTD_LEDGER_BASES)[number];

export const MtdLedgerQuerySchema = Type.Object(
  {
    taxYear: Type.String({ pattern: TAX_YEAR_PATTERN }),
    periodEndDate: IsoDate,
    basis: Type.Optional(
      Type.Union(
        MTD_LEDGER_BASES.map((b) => Type.Literal(b)),
        { default: 'cash' },
      ),
    ),
  },
  { additionalProperties: false },
);
export type MtdLedgerQuery = Static<typeof MtdLedgerQuerySchema>;

export const MtdLedgerAccountSchema = Type.Object({
  /** provider:account id, the mapping's key. */
  key: Type.String(),
  code: Nullable(Type.String()),
  name: Type.String(),
  kind: Type.Union([Type.Literal('income'), Type.Literal('expense')]),
  /** The tax year to date, to the period's end (GBP, as the report gives it). */
  amount: Type.Number(),
  category: Type.Union(MTD_LEDGER_CATEGORIES.map((c) => Type.Literal(c))),
  /** False while the category is only suggested (income to turnover, an expense to other expenses). */
  mapped: Type.Boolean(),
});
export type MtdLedgerAccount = Static<typeof MtdLedgerAccountSchema>;

/** The client's ledger for the tax year to date, account by account, and the figures its mapping gives. */
export const MtdLedgerSchema = Type.Object({
  provider: Type.Union([Type.Literal('xero'), Type.Literal('quickbooks')]),
  organisation: Nullable(Type.String()),
  fromDate: IsoDate,
  toDate: IsoDate,
  basis: Type.Union(MTD_LEDGER_BASES.map((b) => Type.Literal(b))),
  accounts: Type.Array(MtdLedgerAccountSchema),
  figures: Type.Object({
    turnover: Type.Number(),
    other: Type.Number(),
    expenses: Type.Record(Type.String(), Type.Number()),
  }),
  /** Accounts whose category is only suggested. */
  unmapped: Type.Integer(),
});
export type MtdLedger = Static<typeof MtdLedgerSchema>;

export const MtdLedgerMappingsBodySchema = Type.Object(
  {
    mappings: Type.Array(
      Type.Object(
        {
          key: Type.String({ minLength: 3, maxLength: 200, pattern: '^(xero|quickbooks):' }),
          name: Type.String({ minLength: 1, maxLength: 300 }),
          category: Type.Union(MTD_LEDGER_CATEGORIES.map((c) => Type.Literal(c))),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
  },
  { additionalProperties: false },
);
export type MtdLedgerMappingsBody = Static<typeof MtdLedgerMappingsBodySchema>;

/**
 * Property Business API 6.0, UK property cumulative period summary (landlords are in MTD too): the income
 * and expense fields HMRC defines, rent-a-room flattened (rentARoomRentsReceived, rentARoomAmountClaimed).
 */
export const MTD_PROPERTY_INCOME = [
  'periodAmount',
  'premiumsOfLeaseGrant',
  'reversePremiums',
  'otherIncome',
  'taxDeducted',
  'rentARoomRentsReceived',
] as const;
export type MtdPropertyIncome = (typeof MTD_PROPERTY_INCOME)[number];
export const MTD_PROPERTY_EXPENSES = [
  'premisesRunningCosts',
  'repairsAndMaintenance',
  'financialCosts',
  'professionalFees',
  'costOfServices',
  'other',
  'travelCosts',
  'residentialFinancialCost',
  'residentialFinancialCostsCarriedForward',
  'rentARoomAmountClaimed',
] as const;
export type MtdPropertyExpense = (typeof MTD_PROPERTY_EXPENSES)[number];
/** Fields HMRC takes as zero or more (the rest of the expenses may be negative, an adjustment). */
export const MTD_PROPERTY_NON_NEGATIVE: ReadonlyArray<MtdPropertyExpense> = [
  'residentialFinancialCost',
  'residentialFinancialCostsCarriedForward',
  'rentARoomAmountClaimed',
];

const positive = Type.Number({ minimum: 0, maximum: 99999999999.99 });
export const MtdPropertyFiguresSchema = Type.Object(
  {
    businessId: Type.String({ pattern: '^X[A-Z0-9]{1}IS[0-9]{11}$' }),
    taxYear: Type.String({ pattern: TAX_YEAR_PATTERN }),
    periodEndDate: IsoDate,
    income: Type.Partial(Type.Object(propertiesOf(MTD_PROPERTY_INCOME, () => positive)), { additionalProperties: false }),
    expenses: Type.Partial(
      Type.Object(propertiesOf(MTD_PROPERTY_EXPENSES, (c) => (MTD_PROPERTY_NON_NEGATIVE.includes(c) ? positive : money))),
      { additionalProperties: false },
    ),
    device: MtdDeviceSchema,
  },
  { additionalProperties: false },
);
export type MtdPropertyFigures = Static<typeof MtdPropertyFiguresSchema>;

export const MtdPropertySubmitBodySchema = Type.Composite(
  [MtdPropertyFiguresSchema, Type.Object({ reviewHash: Type.String({ minLength: 10 }), confirmed: Type.Literal(true) })],
  { additionalProperties: false },
);

export const MtdUpdateReviewSchema = Type.Object({
  /** Exactly the JSON HMRC will receive. */
  body: Type.Unknown(),
  path: Type.String(),
  /** Hash of the body: the submission must present it (the figures were not changed after review). */
  reviewHash: Type.String(),
});

export const MtdUpdateSubmitBodySchema = Type.Composite(
  [MtdUpdateFiguresSchema, Type.Object({ reviewHash: Type.String({ minLength: 10 }), confirmed: Type.Literal(true) })],
  { additionalProperties: false },
);

export const MtdDeviceBodySchema = Type.Object({ device: MtdDeviceSchema }, { additionalProperties: false });

/** The final declaration (issue 31): first HMRC's intent-to-finalise calculation, then the declaration agreeing to it. */
export const MtdFinalCalculationBodySchema = Type.Object(
  { taxYear: Type.String({ pattern: TAX_YEAR_PATTERN }), device: MtdDeviceSchema },
  { additionalProperties: false },
);
export const MtdFinalDeclarationBodySchema = Type.Object(
  {
    taxYear: Type.String({ pattern: TAX_YEAR_PATTERN }),
    calculationId: Type.String({ minLength: 1, maxLength: 100 }),
    /** The agent confirms HMRC's declaration statement (MTD_TEXTS.finalDeclarationStatement). */
    confirmed: Type.Literal(true),
    device: MtdDeviceSchema,
  },
  { additionalProperties: false },
);

/** One round of the daily refresh made from the MTD page: clients read now, refused by HMRC, still to read. */
export const MtdRefreshDueSchema = Type.Object({
  refreshed: Type.Integer(),
  failed: Type.Integer(),
  remaining: Type.Integer(),
});
export type MtdRefreshDue = Static<typeof MtdRefreshDueSchema>;

export const MtdOverviewSchema = Type.Object({
  clients: Type.Array(
    Type.Object({
      clientId: Type.String(),
      companyName: Type.String(),
      authorisationStatus: Nullable(Type.String()),
      expiresOn: Nullable(Type.String()),
      mandatedFrom: Nullable(Type.String()),
      exemptionReason: Nullable(Type.String()),
      due: Type.Integer(),
      overdue: Type.Integer(),
      fulfilled: Type.Integer(),
    }),
  ),
  scope: Type.Object({ now: Type.Array(Type.String()), april2027: Type.Array(Type.String()), april2028: Type.Array(Type.String()) }),
  obligations: Type.Array(
    Type.Intersect([MtdObligationSchema, Type.Object({ clientId: Type.String(), companyName: Type.String(), quarter: Type.String() })]),
  ),
});
export type MtdOverview = Static<typeof MtdOverviewSchema>;

/** The in-year calculation's headline figures (Individual Calculations API 9.0, retrieve). */
export const MtdCalculationSummarySchema = Type.Object({
  calculationId: Type.String(),
  taxYear: Nullable(Type.String()),
  calculationTimestamp: Nullable(Type.String()),
  totalIncomeReceived: Nullable(Type.Number()),
  totalTaxableIncome: Nullable(Type.Number()),
  totalIncomeTaxAndNicsDue: Nullable(Type.Number()),
});
export type MtdCalculationSummary = Static<typeof MtdCalculationSummarySchema>;
