import { clientDirectoryTable, outboxTables } from '@countinghouse/kit';
import type { IntegrationData, IntegrationType, MtdLedgerCategory } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
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

export const SCHEMA = 'integrations';
export const integrations = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(integrations);

/**
 * A read model of crm's clients, built from crm.client_upserted (the kit's client directory, its common
 * columns alone): which client record belongs to which person (and which accountant is assigned),
 * without calling crm.
 */
export const clientDirectory = clientDirectoryTable(integrations, { indexPrefix: 'client_directory_', columns: {} });

/** The spec's client_integrations: one row per client and provider, kept on disconnect. No secrets here. */
export const clientIntegrations = integrations.table(
  'client_integrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    integrationType: text('integration_type').$type<IntegrationType>().notNull(),
    isActive: boolean('is_active').notNull().default(false),
    /** company_name and the latest sync summary (IntegrationData in proto). */
    integrationData: jsonb('integration_data')
      .$type<Partial<IntegrationData>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    needsReconnect: boolean('needs_reconnect').notNull().default(false),
    lastSyncJobId: text('last_sync_job_id'),
    lastSyncError: text('last_sync_error'),
    connectedBy: text('connected_by'),
    connectedAt: timestamp('connected_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('client_integrations_client_type_idx').on(t.clientId, t.integrationType),
    check('client_integrations_type_check', sql`${t.integrationType} in ('xero', 'quickbooks')`),
  ],
);

/**
 * The provider grant of an integration, encrypted at rest (AES-256-GCM, bound to the integration id).
 * Kept apart from client_integrations so no listing query ever reads a token.
 */
export const integrationCredentials = integrations.table('integration_credentials', {
  integrationId: uuid('integration_id')
    .primaryKey()
    .references(() => clientIntegrations.id, { onDelete: 'cascade' }),
  /** Xero tenant id or QuickBooks realm id: the organisation the grant reaches. */
  externalId: text('external_id').notNull(),
  /** Xero's connection id (to remove the tenant connection); null for QuickBooks. */
  connectionId: text('connection_id'),
  accessTokenEnc: text('access_token_enc').notNull(),
  refreshTokenEnc: text('refresh_token_enc').notNull(),
  accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }).notNull(),
  /** When the refresh token lapses unused: Xero 60 days after its issue, Intuit x_refresh_token_expires_in (100 days). */
  refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }),
  scope: text('scope'),
  /** The keep-alive job's latest try: when, and 'refreshed' | 'refused' | 'unavailable'. */
  keepAliveAt: timestamp('keep_alive_at', { withTimezone: true }),
  keepAliveOutcome: text('keep_alive_outcome'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A started connection: a random state (stored only as its SHA-256) bound to the person, client and
 * provider, with the PKCE verifier (encrypted); single use, ten minutes.
 */
export const oauthStates = integrations.table(
  'oauth_states',
  {
    stateHash: text('state_hash').primaryKey(),
    provider: text('provider').notNull(),
    userId: text('user_id').notNull(),
    clientId: text('client_id').notNull(),
    codeVerifierEnc: text('code_verifier_enc'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('oauth_states_expires_idx').on(t.expiresAt)],
);

/** Sync jobs and whose they are, so a job's status is shown only to those who may see its integration. */
export const syncJobs = integrations.table(
  'sync_jobs',
  {
    jobId: text('job_id').primaryKey(),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => clientIntegrations.id, { onDelete: 'cascade' }),
    requestedBy: text('requested_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set while the job waits for the provider (its 429 or our call budget): when it runs again, and why. */
    retryAt: timestamp('retry_at', { withTimezone: true }),
    retryReason: text('retry_reason'),
    deferrals: integer('deferrals').notNull().default(0),
  },
  (t) => [index('sync_jobs_integration_idx').on(t.integrationId)],
);

/**
 * Provider calls made per organisation, for the sliding-window budget (Xero: 60 a minute, 5,000 a day
 * per tenant). In the database so every replica and a restarted one count the same calls; rows older
 * than a day are pruned as new calls are taken.
 */
export const providerCalls = integrations.table(
  'provider_calls',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    /** Xero tenant id. */
    organisation: text('organisation').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('provider_calls_org_at_idx').on(t.provider, t.organisation, t.at)],
);

// ---------------------------------------------------------------------------------------------------
// Making Tax Digital for Income Tax (issue 31; decision 430: inside integrations, which already keeps
// provider grants encrypted and refreshes them).

/** The practice's one HMRC agent connection (id 'practice'): its ARN and its grant, encrypted. */
export const hmrcConnection = integrations.table('hmrc_connection', {
  id: text('id').primaryKey(),
  arn: text('arn'),
  accessTokenEnc: text('access_token_enc'),
  refreshTokenEnc: text('refresh_token_enc'),
  accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }),
  scope: text('scope'),
  needsReconnect: boolean('needs_reconnect').notNull().default(false),
  connectedBy: text('connected_by'),
  connectedAt: timestamp('connected_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A client's MTD identifiers (NINO and postcode: the known facts) and exemption. */
export const mtdClients = integrations.table('mtd_clients', {
  clientId: text('client_id').primaryKey(),
  nino: text('nino'),
  postcode: text('postcode'),
  exemptionReason: text('exemption_reason'),
  /** When HMRC's businesses and obligations were last read for this client (none may have come back). */
  obligationsRefreshedAt: timestamp('obligations_refreshed_at', { withTimezone: true }),
  updatedBy: text('updated_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Qualifying income per tax year, as the practice records it: append only, the latest row of a year counts. */
export const mtdQualifyingIncome = integrations.table(
  'mtd_qualifying_income',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    taxYear: text('tax_year').notNull(),
    amountPence: bigint('amount_pence', { mode: 'number' }).notNull(),
    recordedBy: text('recorded_by').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mtd_income_client_idx').on(t.clientId, t.taxYear, t.recordedAt)],
);

/** Agent authorisation requests (Agent Authorisation API 2.0 invitations). */
export const mtdAuthorisations = integrations.table(
  'mtd_authorisations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    agentType: text('agent_type').notNull(),
    invitationId: text('invitation_id').notNull(),
    status: text('status').notNull(),
    clientActionUrl: text('client_action_url'),
    expiresOn: text('expires_on').notNull(),
    requestedBy: text('requested_by').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
  },
  (t) => [index('mtd_authorisations_client_idx').on(t.clientId, t.requestedAt)],
);

/** A client's businesses (Business Details API), as last read. */
export const mtdBusinesses = integrations.table(
  'mtd_businesses',
  {
    clientId: text('client_id').notNull(),
    businessId: text('business_id').notNull(),
    typeOfBusiness: text('type_of_business').notNull(),
    tradingName: text('trading_name'),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('mtd_businesses_pk').on(t.clientId, t.businessId)],
);

/** A client's obligations (Obligations API 3.0), as last read: replaced as a whole on each refresh. */
export const mtdObligations = integrations.table(
  'mtd_obligations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    kind: text('kind').$type<'quarterly' | 'final_declaration'>().notNull(),
    businessId: text('business_id'),
    typeOfBusiness: text('type_of_business'),
    periodStartDate: text('period_start_date').notNull(),
    periodEndDate: text('period_end_date').notNull(),
    dueDate: text('due_date').notNull(),
    status: text('status').notNull(),
    receivedDate: text('received_date'),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('mtd_obligations_client_idx').on(t.clientId),
    check('mtd_obligations_kind_check', sql`${t.kind} in ('quarterly', 'final_declaration')`),
  ],
);

/** Quarterly cumulative updates HMRC accepted: the exact body sent and HMRC's answer (the receipt). Never edited. */
export const mtdSubmissions = integrations.table(
  'mtd_submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    businessId: text('business_id').notNull(),
    taxYear: text('tax_year').notNull(),
    periodStartDate: text('period_start_date').notNull(),
    periodEndDate: text('period_end_date').notNull(),
    body: jsonb('body').notNull(),
    reviewHash: text('review_hash').notNull(),
    hmrcStatus: integer('hmrc_status').notNull(),
    correlationId: text('correlation_id'),
    submittedBy: text('submitted_by').notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mtd_submissions_client_idx').on(t.clientId, t.submittedAt)],
);

/** Final declarations HMRC accepted: the calculation agreed to and HMRC's answer (the receipt). Never edited. */
export const mtdFinalDeclarations = integrations.table(
  'mtd_final_declarations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    taxYear: text('tax_year').notNull(),
    calculationId: text('calculation_id').notNull(),
    hmrcStatus: integer('hmrc_status').notNull(),
    correlationId: text('correlation_id'),
    submittedBy: text('submitted_by').notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mtd_final_declarations_client_idx').on(t.clientId, t.submittedAt)],
);

/** In-year calculations triggered after a submission (Individual Calculations API 9.0). */
export const mtdCalculations = integrations.table('mtd_calculations', {
  calculationId: text('calculation_id').primaryKey(),
  clientId: text('client_id').notNull(),
  submissionId: uuid('submission_id').references(() => mtdSubmissions.id),
  taxYear: text('tax_year').notNull(),
  calculationType: text('calculation_type').notNull(),
  triggeredAt: timestamp('triggered_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The practice's category mapping per client (issue 31, item 6): which of HMRC's self-employment
 * categories each ledger account's figure goes to. Keyed by provider and account id (`xero:<AccountID>`,
 * `quickbooks:<Id>`); the name is kept as it was when mapped, for the record.
 */
export const mtdLedgerMappings = integrations.table(
  'mtd_ledger_mappings',
  {
    clientId: text('client_id').notNull(),
    accountKey: text('account_key').notNull(),
    accountName: text('account_name').notNull(),
    category: text('category').$type<MtdLedgerCategory>().notNull(),
    updatedBy: text('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.accountKey] })],
);

/** Every HMRC call: method, path with the NINO masked, status, HMRC's correlation id. No personal data. */
export const hmrcCalls = integrations.table(
  'hmrc_calls',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    status: integer('status').notNull(),
    correlationId: text('correlation_id'),
    clientId: text('client_id'),
  },
  (t) => [index('hmrc_calls_at_idx').on(t.at)],
);
