import { reportRangeOf, requireRole, type App } from '@countinghouse/kit';
import {
  FailedPaymentsReportSchema,
  MrrReportSchema,
  REPORT_ROLES,
  ReportRangeQuerySchema,
  type FailedPaymentsReport,
  type MrrReport,
} from '@countinghouse/proto';
import type { BillingDeps } from '../use-cases/deps.js';
import { reportFailedPayments, reportMrr } from '../use-cases/reports.js';
import { errors } from './shared.js';

/** Reports on billing's own data, for administrators only: MRR over time and failed payments. */
export function reportRoutes(app: App, d: BillingDeps) {
  const guard = requireRole(REPORT_ROLES);

  app.get(
    '/reports/mrr',
    {
      preHandler: guard,
      schema: {
        tags: ['billing', 'reports'],
        summary: 'Monthly recurring revenue at the end of each month of the range (admin only)',
        querystring: ReportRangeQuerySchema,
        response: { 200: MrrReportSchema, ...errors },
      },
    },
    async (request): Promise<MrrReport> => reportMrr(d, reportRangeOf(request.query)),
  );

  app.get(
    '/reports/failed-payments',
    {
      preHandler: guard,
      schema: {
        tags: ['billing', 'reports'],
        summary: 'Failed payments in the range: count and amount per month, and the list (admin only)',
        querystring: ReportRangeQuerySchema,
        response: { 200: FailedPaymentsReportSchema, ...errors },
      },
    },
    async (request): Promise<FailedPaymentsReport> => reportFailedPayments(d, reportRangeOf(request.query)),
  );
}
