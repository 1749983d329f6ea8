import { Type, type Static } from '@sinclair/typebox';
import { ReportRangeEcho } from '../reports.js';
import { FailedPaymentSchema } from './billing.js';

// billing's reports (admin only), under /api/billing/reports. Each takes ReportRangeQuerySchema.

export const BILLING_REPORT_ROUTES = {
  mrr: '/api/billing/reports/mrr',
  failedPayments: '/api/billing/reports/failed-payments',
} as const;

/**
 * Monthly recurring revenue at one month's end: the monthly fees of the subscriptions live then
 * (started on or before, not cancelled by then; overdue ones still count until cancelled). The month
 * in progress is measured now; a range ending mid-month is measured at the end of its last day.
 */
export const MrrPointSchema = Type.Object({
  /** YYYY-MM */
  month: Type.String(),
  /** The day the figure is measured at the end of (YYYY-MM-DD), or today for the month in progress. */
  as_of: Type.String({ format: 'date' }),
  mrr: Type.Number(),
  subscriptions: Type.Integer({ minimum: 0 }),
});
export type MrrPoint = Static<typeof MrrPointSchema>;

export const MrrReportSchema = Type.Object({
  ...ReportRangeEcho,
  /** One point per month of the range, oldest first; months that have not started yet are left out. */
  months: Type.Array(MrrPointSchema),
  /** Now: the active subscriptions' fees (the /admin/billing MRR) and the overdue ones' apart. */
  active_mrr_now: Type.Number(),
  overdue_mrr_now: Type.Number(),
});
export type MrrReport = Static<typeof MrrReportSchema>;

export const FailedPaymentsMonthSchema = Type.Object({
  month: Type.String(),
  count: Type.Integer({ minimum: 0 }),
  amount: Type.Number(),
});
export type FailedPaymentsMonth = Static<typeof FailedPaymentsMonthSchema>;

/** The most failed payments the list returns; the totals always count them all. */
export const FAILED_PAYMENTS_LIST_LIMIT = 1000;

export const FailedPaymentsReportSchema = Type.Object({
  ...ReportRangeEcho,
  /** Every month of the range, oldest first (zero months included). */
  months: Type.Array(FailedPaymentsMonthSchema),
  total_count: Type.Integer({ minimum: 0 }),
  total_amount: Type.Number(),
  /** The failed payments themselves, newest first (at most FAILED_PAYMENTS_LIST_LIMIT). */
  payments: Type.Array(FailedPaymentSchema),
});
export type FailedPaymentsReport = Static<typeof FailedPaymentsReportSchema>;
