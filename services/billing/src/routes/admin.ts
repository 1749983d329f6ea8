import { requireRole, type App } from '@countinghouse/kit';
import {
  AdminSubscriptionListSchema,
  AdminSubscriptionQuerySchema,
  BillingSummarySchema,
  MonthlyRevenueSchema,
  rolesFor,
  type BillingSummary,
  type MonthlyRevenue,
} from '@countinghouse/proto';
import { monthlyRevenue } from '../db/queries.js';
import { listAllSubscriptions, summariseBilling } from '../use-cases/back-office.js';
import type { BillingDeps } from '../use-cases/deps.js';
import { errors } from './shared.js';

/** /admin/billing: subscriptions, their status, monthly recurring revenue, failed payments (admin and manager). */
export function adminRoutes(app: App, d: BillingDeps) {
  const guard = requireRole(rolesFor('billing.manage'));

  app.get(
    '/admin/subscriptions',
    {
      preHandler: guard,
      schema: {
        tags: ['billing'],
        summary: 'Every subscription, newest first',
        querystring: AdminSubscriptionQuerySchema,
        response: { 200: AdminSubscriptionListSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      return listAllSubscriptions(d, { status: q.status, page: q.page, pageSize: q.page_size });
    },
  );

  app.get(
    '/admin/summary',
    {
      preHandler: guard,
      schema: {
        tags: ['billing'],
        summary: 'Monthly recurring revenue, counts by status, money collected, failed payments',
        response: { 200: BillingSummarySchema, ...errors },
      },
    },
    async (): Promise<BillingSummary> => summariseBilling(d),
  );

  // The practice figures' permission (control panel and staff portal cards), not billing.manage:
  // the revenue total is one of those figures; no subscription or person is shown.
  app.get(
    '/revenue',
    {
      preHandler: requireRole(rolesFor('crm.overview')),
      schema: {
        tags: ['billing'],
        summary: 'Monthly revenue: fees of active subscriptions, overdue fees apart (the one definition)',
        response: { 200: MonthlyRevenueSchema, ...errors },
      },
    },
    async (): Promise<MonthlyRevenue> => monthlyRevenue(d.db),
  );
}
