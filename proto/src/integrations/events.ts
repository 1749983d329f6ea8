import { Type } from '@sinclair/typebox';
import { INTEGRATION_TYPES } from '../constants.js';

const Provider = Type.Union(INTEGRATION_TYPES.map((t) => Type.Literal(t)));

const Base = {
  integrationId: Type.String(),
  clientId: Type.String(),
  integrationType: Provider,
};

/** A client connected (or reconnected) a provider. */
export const IntegrationConnectedSchema = Type.Object({ ...Base, companyName: Type.Union([Type.String(), Type.Null()]) });

/** A sync finished: the summary now in integration_data. Amounts in the organisation's base currency. */
export const IntegrationSyncedSchema = Type.Object({
  ...Base,
  syncedAt: Type.String({ format: 'date-time' }),
  currency: Type.String(),
  receivables: Type.Number(),
  payables: Type.Number(),
  overdueReceivables: Type.Number(),
  overduePayables: Type.Number(),
  contacts: Type.Integer(),
  invoices: Type.Integer(),
});

/**
 * A sync failed for good (retries used up, or the provider refused the grant), or the daily
 * keep-alive found the grant refused (trigger 'keep_alive', reason needs_reconnect).
 */
export const IntegrationSyncFailedSchema = Type.Object({
  ...Base,
  reason: Type.Union([Type.Literal('needs_reconnect'), Type.Literal('provider_unavailable'), Type.Literal('error')]),
  trigger: Type.Optional(Type.Union([Type.Literal('sync'), Type.Literal('keep_alive')])),
  /**
   * The client's sign-in account, when the integrations service knows it: with needs_reconnect, identity
   * e-mails them to connect again (issue 16). Optional: events written before it was added lack it.
   */
  clientUserId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

/** The client disconnected: is_active false, the record kept, tokens revoked at the provider. */
export const IntegrationDisconnectedSchema = Type.Object({ ...Base });

/**
 * HMRC's obligations for one client (MTD for Income Tax), as last read: the whole list replaces what
 * was published before for that client (deadlines replaces its computed MTD dates with these; a
 * fulfilled one is done on receivedDate).
 */
export const MtdObligationsUpdatedSchema = Type.Object({
  clientId: Type.String(),
  refreshedAt: Type.String({ format: 'date-time' }),
  obligations: Type.Array(
    Type.Object({
      kind: Type.Union([Type.Literal('quarterly'), Type.Literal('final_declaration')]),
      businessId: Type.Union([Type.String(), Type.Null()]),
      periodStartDate: Type.String(),
      periodEndDate: Type.String(),
      dueDate: Type.String(),
      status: Type.String(),
      receivedDate: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});

/** A quarterly cumulative update HMRC accepted (no figures: they stay in the integrations service). */
export const MtdUpdateSubmittedSchema = Type.Object({
  clientId: Type.String(),
  submissionId: Type.String(),
  taxYear: Type.String(),
  periodEndDate: Type.String(),
  calculationId: Type.Union([Type.String(), Type.Null()]),
});

/** A final declaration HMRC accepted for a tax year (the client's return for the year, made by the agent). */
export const MtdFinalDeclarationSubmittedSchema = Type.Object({
  clientId: Type.String(),
  declarationId: Type.String(),
  taxYear: Type.String(),
  calculationId: Type.String(),
});

/** An agent authorisation request's status changed (requested, read back, cancelled). */
export const MtdAuthorisationChangedSchema = Type.Object({
  clientId: Type.String(),
  authorisationId: Type.String(),
  status: Type.String(),
  expiresOn: Type.String(),
});

export const INTEGRATIONS_EVENTS = {
  'integrations.mtd_obligations_updated': MtdObligationsUpdatedSchema,
  'integrations.mtd_update_submitted': MtdUpdateSubmittedSchema,
  'integrations.mtd_final_declaration_submitted': MtdFinalDeclarationSubmittedSchema,
  'integrations.mtd_authorisation_changed': MtdAuthorisationChangedSchema,
  'integrations.connected': IntegrationConnectedSchema,
  'integrations.synced': IntegrationSyncedSchema,
  'integrations.sync_failed': IntegrationSyncFailedSchema,
  'integrations.disconnected': IntegrationDisconnectedSchema,
} as const;
