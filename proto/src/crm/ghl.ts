import { Type, type Static } from '@sinclair/typebox';
import { CrmDateTime, Nullable } from './common.js';
import { LeadSchema } from './leads.js';

/** The source recorded on leads imported from the external CRM. */
export const GHL_SOURCE = 'GoHighLevel';

/** A contact as the LeadConnector (GoHighLevel) API returns it: the spec's External CRM lead. */
export const GhlContactSchema = Type.Object({
  id: Type.String(),
  contactName: Type.Optional(Nullable(Type.String())),
  firstName: Type.Optional(Nullable(Type.String())),
  lastName: Type.Optional(Nullable(Type.String())),
  email: Type.Optional(Nullable(Type.String())),
  phone: Type.Optional(Nullable(Type.String())),
  companyName: Type.Optional(Nullable(Type.String())),
  tags: Type.Optional(Nullable(Type.Array(Type.String()))),
  dateAdded: Type.Optional(Nullable(Type.String())),
});
export type GhlContact = Static<typeof GhlContactSchema>;

/** Whether the import can run. Without GHL_API_KEY and GHL_LOCATION_ID it cannot (and says so). */
export const GhlConfigSchema = Type.Object({
  configured: Type.Boolean(),
  /** Shown when not configured: 'The external CRM (GoHighLevel) is not configured...'. */
  message: Nullable(Type.String()),
  last_import_at: Nullable(CrmDateTime),
  last_import_total: Nullable(Type.Integer({ minimum: 0 })),
});
export type GhlConfig = Static<typeof GhlConfigSchema>;

/**
 * The answer of the import (the spec's fetch-ghl-leads: success, leads, total). total is how many
 * contacts the CRM returned; created + updated = total. The toast is MESSAGES.loadedLeads(total).
 * Failure: { error: { code, message } } with 503 NOT_CONFIGURED or UPSTREAM_UNAVAILABLE.
 */
export const GhlImportResultSchema = Type.Object({
  success: Type.Boolean(),
  leads: Type.Array(LeadSchema),
  total: Type.Integer({ minimum: 0 }),
  created: Type.Integer({ minimum: 0 }),
  updated: Type.Integer({ minimum: 0 }),
});
export type GhlImportResult = Static<typeof GhlImportResultSchema>;

export const GHL_MESSAGES = {
  notConfigured: 'The external CRM (GoHighLevel) is not configured. Set GHL_API_KEY and GHL_LOCATION_ID on the server to import leads.',
  unauthorised: 'GoHighLevel refused the API key (401). Check GHL_API_KEY and GHL_LOCATION_ID.',
} as const;
