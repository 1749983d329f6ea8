import { Type, type Static } from '@sinclair/typebox';
import { ReportRangeEcho } from '../reports.js';
import { LeadStageSchema } from './leads.js';
import { SubscriptionStatusSchema } from './clients.js';
import { Nullable } from './common.js';

// crm's reports (admin only), under /api/crm/reports. Each takes ReportRangeQuerySchema.

export const CRM_REPORT_ROUTES = {
  clients: '/api/crm/reports/clients',
  leads: '/api/crm/reports/leads',
} as const;

/** Clients registered in the range (registration_date, London days) on one package, by status. */
export const ClientsByPackageSchema = Type.Object({
  /** null: no package chosen. */
  package_name: Nullable(Type.String()),
  clients: Type.Integer({ minimum: 0 }),
  active: Type.Integer({ minimum: 0 }),
  pending: Type.Integer({ minimum: 0 }),
  cancelled: Type.Integer({ minimum: 0 }),
  overdue: Type.Integer({ minimum: 0 }),
  /** Sum of their monthly fees, GBP. */
  monthly_fees: Type.Number(),
});
export type ClientsByPackage = Static<typeof ClientsByPackageSchema>;

export const ClientsByStatusSchema = Type.Object({
  status: SubscriptionStatusSchema,
  clients: Type.Integer({ minimum: 0 }),
  monthly_fees: Type.Number(),
});
export type ClientsByStatus = Static<typeof ClientsByStatusSchema>;

/**
 * The same figures as the clients list with registered_from/registered_to: `total` equals its total,
 * each status its total with that status filter.
 */
export const ClientsReportSchema = Type.Object({
  ...ReportRangeEcho,
  total: Type.Integer({ minimum: 0 }),
  monthly_fees: Type.Number(),
  /** The catalogue's packages in catalogue order (zeros included), then any other names, then no package. */
  by_package: Type.Array(ClientsByPackageSchema),
  /** Every status, in the spec's order (active, pending, cancelled, overdue). */
  by_status: Type.Array(ClientsByStatusSchema),
});
export type ClientsReport = Static<typeof ClientsReportSchema>;

export const LeadsByStageSchema = Type.Object({ stage: LeadStageSchema, leads: Type.Integer({ minimum: 0 }) });
export type LeadsByStage = Static<typeof LeadsByStageSchema>;

/** Converted = won (only a won lead converts into a client); conversion_rate = won / leads, 0…1. */
export const LeadsBySourceSchema = Type.Object({
  /** null: no source recorded. */
  source: Nullable(Type.String()),
  leads: Type.Integer({ minimum: 0 }),
  won: Type.Integer({ minimum: 0 }),
  lost: Type.Integer({ minimum: 0 }),
  /** Neither won nor lost yet. */
  open: Type.Integer({ minimum: 0 }),
  conversion_rate: Type.Number({ minimum: 0, maximum: 1 }),
});
export type LeadsBySource = Static<typeof LeadsBySourceSchema>;

/** Leads created in the range (created_at, London days); the leads list with created_from/created_to counts the same. */
export const LeadsReportSchema = Type.Object({
  ...ReportRangeEcho,
  total: Type.Integer({ minimum: 0 }),
  won: Type.Integer({ minimum: 0 }),
  lost: Type.Integer({ minimum: 0 }),
  conversion_rate: Type.Number({ minimum: 0, maximum: 1 }),
  /** Every stage in pipeline order (new_enquiry … won, lost), zeros included. */
  by_stage: Type.Array(LeadsByStageSchema),
  /** Most leads first (ties by name; no source last). */
  by_source: Type.Array(LeadsBySourceSchema),
});
export type LeadsReport = Static<typeof LeadsReportSchema>;
