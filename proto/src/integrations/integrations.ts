import { Type, type Static } from '@sinclair/typebox';
import { INTEGRATION_TYPES, type IntegrationType } from '../constants.js';
import { MESSAGES } from '../messages.js';

// HTTP contracts of the integrations service (Xero and QuickBooks connect, sync, disconnect).

export const IntegrationTypeSchema = Type.Union(INTEGRATION_TYPES.map((t) => Type.Literal(t)));

/** How people see each provider's name. */
export const PROVIDER_LABELS: Record<IntegrationType, string> = { xero: 'Xero', quickbooks: 'QuickBooks' };

/** The texts of the connect round trip, per provider (spec section 8). */
export const PROVIDER_MESSAGES: Record<
  IntegrationType,
  { connected: string; failedToConnect: string; failedToStart: string; synced: string }
> = {
  xero: {
    connected: MESSAGES.connectedXero,
    failedToConnect: MESSAGES.failedToConnectXero,
    failedToStart: MESSAGES.failedToStartXero,
    synced: MESSAGES.syncedProvider('Xero'),
  },
  quickbooks: {
    connected: MESSAGES.connectedQuickBooks,
    failedToConnect: MESSAGES.failedToConnectQuickBooks,
    failedToStart: MESSAGES.failedToStartQuickBooks,
    synced: MESSAGES.syncedProvider('QuickBooks'),
  },
};

/** Our own texts (not in the spec's catalogue). */
export const INTEGRATION_TEXTS = {
  notConfigured: (provider: IntegrationType) =>
    `${PROVIDER_LABELS[provider]} is not configured on this server. Please ask the practice to set up the ${PROVIDER_LABELS[provider]} app credentials.`,
  noClientRecord: 'Your business record is not set up yet, so accounting software cannot be connected. Please contact the practice.',
  notConnected: (provider: IntegrationType) => `${PROVIDER_LABELS[provider]} is not connected.`,
  needsReconnect: (provider: IntegrationType) =>
    `The connection to ${PROVIDER_LABELS[provider]} has expired or was revoked. Please connect again.`,
  integrationNotFound: 'Integration not found',
  syncJobNotFound: 'Sync job not found',
  chooseClient: 'Choose a client to see their integrations.',
  /** A sync waiting for the provider's limit (its 429, or our share of its calls per organisation). */
  syncWaiting: (provider: IntegrationType) =>
    `${PROVIDER_LABELS[provider]} asked us to slow down, so this sync is queued and will continue by itself when ${PROVIDER_LABELS[provider]} allows.`,
} as const;

/** The query flag the API's callback returns with: /integrations?xero=connected (spec section 4). */
export const CONNECT_RESULTS = ['connected', 'error'] as const;
export type ConnectResult = (typeof CONNECT_RESULTS)[number];

/** A sync's figures, in the organisation's base currency (GBP for a UK business). */
export const IntegrationSummarySchema = Type.Object({
  currency: Type.String(),
  /** Outstanding on sales invoices. */
  receivables: Type.Number(),
  /** Outstanding on bills. */
  payables: Type.Number(),
  /** Outstanding sales invoices past their due date. */
  overdue_receivables: Type.Number(),
  /** Outstanding bills past their due date. */
  overdue_payables: Type.Number(),
  contacts: Type.Integer(),
  invoices: Type.Integer(),
  bills: Type.Integer(),
});
export type IntegrationSummary = Static<typeof IntegrationSummarySchema>;

/** What integration_data holds (spec: "containing company_name"); never tokens. */
export const IntegrationDataSchema = Type.Object({
  company_name: Type.Union([Type.String(), Type.Null()]),
  summary: Type.Optional(IntegrationSummarySchema),
});
export type IntegrationData = Static<typeof IntegrationDataSchema>;

export const SYNC_JOB_STATES = ['waiting', 'active', 'completed', 'failed', 'delayed', 'unknown'] as const;
export const SyncJobStateSchema = Type.Union(SYNC_JOB_STATES.map((s) => Type.Literal(s)));
export type SyncJobState = (typeof SYNC_JOB_STATES)[number];

export const SyncJobSchema = Type.Object({
  id: Type.String(),
  integration_type: IntegrationTypeSchema,
  state: SyncJobStateSchema,
  /** 0 to 100 */
  progress: Type.Number(),
  /** Set when the job failed: a safe, user-facing reason. */
  error: Type.Optional(Type.String()),
  /** Set while the job waits for the provider's rate limit: when it runs again. */
  retry_at: Type.Optional(Type.String({ format: 'date-time' })),
  /** Set with retry_at: why the sync waits (INTEGRATION_TEXTS.syncWaiting). */
  notice: Type.Optional(Type.String()),
});
export type SyncJob = Static<typeof SyncJobSchema>;

/** One card on the Integrations page: always one per provider, connected or not. */
export const IntegrationCardSchema = Type.Object({
  /** Null when this client never connected the provider. */
  id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  client_id: Type.Union([Type.String(), Type.Null()]),
  integration_type: IntegrationTypeSchema,
  /** Connected (spec section 4). */
  is_active: Type.Boolean(),
  integration_data: IntegrationDataSchema,
  last_sync_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** The provider refused the stored grant (revoked or expired): connect again. */
  needs_reconnect: Type.Boolean(),
  /** This server holds the provider's app credentials, so Connect can work. */
  configured: Type.Boolean(),
  /** The latest sync job, while it is known to the queue. */
  sync: Type.Union([SyncJobSchema, Type.Null()]),
});
export type IntegrationCard = Static<typeof IntegrationCardSchema>;

export const IntegrationListQuerySchema = Type.Object({
  /** Staff only: whose integrations to show. A client always sees their own. */
  client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});
export type IntegrationListQuery = Static<typeof IntegrationListQuerySchema>;

export const IntegrationListSchema = Type.Object({
  client: Type.Union([Type.Object({ id: Type.String(), company_name: Type.String() }), Type.Null()]),
  integrations: Type.Array(IntegrationCardSchema),
});
export type IntegrationList = Static<typeof IntegrationListSchema>;

export const ProviderParamsSchema = Type.Object({ provider: IntegrationTypeSchema });

/** connect-xero / connect-quickbooks: the browser then navigates to authUrl (spec section 7). */
export const ConnectReplySchema = Type.Object({ authUrl: Type.String() });
export type ConnectReply = Static<typeof ConnectReplySchema>;

/** What the provider sends back to the redirect URI. */
export const CallbackQuerySchema = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 2000 })),
  state: Type.Optional(Type.String({ maxLength: 200 })),
  /** QuickBooks: the company the grant is for. */
  realmId: Type.Optional(Type.String({ maxLength: 100 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
  error_description: Type.Optional(Type.String({ maxLength: 2000 })),
});

/** sync-xero-data / sync-quickbooks-data (spec: "answer shape not shown"): the queued job. */
export const SyncReplySchema = Type.Object({ jobId: Type.String() });
export type SyncReply = Static<typeof SyncReplySchema>;

export const DisconnectReplySchema = Type.Object({ success: Type.Boolean(), message: Type.String() });
export type DisconnectReply = Static<typeof DisconnectReplySchema>;

/** HTTP routes of the integrations service, under the gateway. */
export const INTEGRATIONS_ROUTES = {
  list: '/api/integrations',
  connect: (p: IntegrationType) => `/api/integrations/${p}/connect`,
  /** Public at the gateway: the provider's redirect lands here; the state authenticates it. */
  callback: (p: IntegrationType) => `/api/integrations/${p}/callback`,
  sync: (p: IntegrationType) => `/api/integrations/${p}/sync`,
  disconnect: (p: IntegrationType) => `/api/integrations/${p}/disconnect`,
  job: (id: string) => `/api/integrations/jobs/${encodeURIComponent(id)}`,
  /** Where the callback sends the browser afterwards. */
  page: '/integrations',
} as const;

/** How long a started connection may take before its state expires. */
export const OAUTH_STATE_TTL_SECONDS = 600;
