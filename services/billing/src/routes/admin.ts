import { requireRole, type App } from '@countinghouse/kit';
import {
  AdminSubscriptionListSchema,
  AdminSubscriptionQuerySchema,
  BillingSummarySchema,
  MonthlyRevenueSchema,
  rolesFor,
  type AdminSubscriptionQuery,
  type BillingSummary,
  type MonthlyRevenue,
} from '@countinghouse/proto';
import { desc, eq, sql } from 'drizzle-orm';
import type { BillingDeps } from '../billing.js';
import { monthlyRevenue, toAdmin } from '../db/queries.js';
import { payments, subscriptions } from '../db/schema.js';
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
      const q = request.query as AdminSubscriptionQuery;
      const where = q.status ? eq(subscriptions.status, q.status) : undefined;
      const [rows, total] = await Promise.all([
        d.db
          .select()
          .from(subscriptions)
          .where(where)
          .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
          .limit(q.page_size)
          .offset((q.page - 1) * q.page_size),
        d.db
          .select({ n: sql<number>`count(*)::int` })
          .from(subscriptions)
          .where(where),
      ]);
      return { subscriptions: rows.map(toAdmin), total: total[0]?.n ?? 0, page: q.page, page_size: q.page_size };
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
    async (): Promise<BillingSummary> => {
      const [revenue, byStatus, collected, failed] = await Promise.all([
        monthlyRevenue(d.db),
        d.db
          .select({
            status: subscriptions.status,
            n: sql<number>`count(*)::int`,
          })
          .from(subscriptions)
          .groupBy(subscriptions.status),
        d.db
          .select({ total: sql<string>`coalesce(sum(${payments.amount}), 0)` })
          .from(payments)
          .where(sql`${payments.status} = 'paid' and ${payments.occurredAt} > now() - interval '30 days'`),
        d.db
          .select({ p: payments, s: subscriptions })
          .from(payments)
          .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
          .where(eq(payments.status, 'failed'))
          .orderBy(desc(payments.occurredAt))
          .limit(50),
      ]);
      const count = (s: string) => byStatus.find((r) => r.status === s)?.n ?? 0;
      return {
        mrr: revenue.monthly_revenue,
        overdue_fees: revenue.overdue_fees,
        active: count('active'),
        overdue: count('overdue'),
        cancelled: count('cancelled'),
        pending: count('pending'),
        collected_30d: Math.round(Number(collected[0]?.total ?? 0) * 100) / 100,
        failed_payments: failed.map(({ p, s }) => ({
          id: p.id,
          subscription_id: s.id,
          email: s.email,
          package_name: s.packageName,
          amount: p.amount,
          provider_invoice_id: p.providerInvoiceId,
          occurred_at: p.occurredAt.toISOString(),
        })),
        provider: d.provider.kind,
      };
    },
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
