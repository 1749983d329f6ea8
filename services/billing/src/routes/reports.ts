import { londonDayStart, reportRangeOf, requireRole, type App } from '@countinghouse/kit';
import {
  FAILED_PAYMENTS_LIST_LIMIT,
  FailedPaymentsReportSchema,
  MrrReportSchema,
  REPORT_ROLES,
  REPORT_TIME_ZONE,
  ReportRangeQuerySchema,
  addDays,
  londonToday,
  monthEnd,
  monthsOf,
  pounds,
  type FailedPaymentsReport,
  type MrrReport,
  type ReportRangeQuery,
} from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import type { BillingDeps } from '../billing.js';
import { monthlyRevenue } from '../db/queries.js';
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
    async (request): Promise<MrrReport> => {
      const { from, to } = reportRangeOf(request.query as ReportRangeQuery);
      const today = londonToday();
      // Each month is measured at the end of its last day in the range, or of today while it runs.
      const points = monthsOf(from, to)
        .filter((m) => `${m}-01` <= today)
        .map((month) => {
          const end = [monthEnd(month), to, today].sort()[0]!;
          return { month, as_of: end, until: addDays(end, 1) };
        });
      const [series, now] = await Promise.all([
        points.length === 0
          ? Promise.resolve({ rows: [] as { i: string; mrr: string; n: string }[] })
          : d.db.execute<{ i: string; mrr: string; n: string }>(sql`
              select p.i, coalesce(sum(s.monthly_fee), 0) as mrr, count(s.id) as n
              from unnest(string_to_array(${points.map((p) => p.until).join(',')}, ',')::date[]) with ordinality as p(until, i)
              left join billing.subscriptions s
                on s.status <> 'pending'
               and s.created_at < (p.until::timestamp at time zone ${REPORT_TIME_ZONE})
               and coalesce(s.cancelled_at, case when s.status = 'cancelled' then s.updated_at end, 'infinity')
                   >= (p.until::timestamp at time zone ${REPORT_TIME_ZONE})
              group by p.i order by p.i`),
        monthlyRevenue(d.db),
      ]);
      return {
        from,
        to,
        months: points.map((p, idx) => {
          const r = series.rows[idx];
          return { month: p.month, as_of: p.as_of, mrr: pounds(r?.mrr), subscriptions: Number(r?.n ?? 0) };
        }),
        active_mrr_now: now.monthly_revenue,
        overdue_mrr_now: now.overdue_fees,
      };
    },
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
    async (request): Promise<FailedPaymentsReport> => {
      const { from, to } = reportRangeOf(request.query as ReportRangeQuery);
      // payments_status_occurred_idx (status, occurred_at desc) serves both.
      const inRange = sql`p.status = 'failed' and p.occurred_at >= ${londonDayStart(from)} and p.occurred_at < ${londonDayStart(addDays(to, 1))}`;
      const [perMonth, list] = await Promise.all([
        d.db.execute<{ month: string; n: string; amount: string }>(sql`
          select to_char(p.occurred_at at time zone ${REPORT_TIME_ZONE}, 'YYYY-MM') as month, count(*) as n, sum(p.amount) as amount
          from billing.payments p where ${inRange} group by 1`),
        d.db.execute<{
          id: string;
          subscription_id: string;
          email: string;
          package_name: string;
          amount: string;
          provider_invoice_id: string | null;
          occurred_at: Date | string;
        }>(sql`
          select p.id, p.subscription_id, s.email, s.package_name, p.amount, p.provider_invoice_id, p.occurred_at
          from billing.payments p join billing.subscriptions s on s.id = p.subscription_id
          where ${inRange}
          order by p.occurred_at desc, p.id desc
          limit ${FAILED_PAYMENTS_LIST_LIMIT}`),
      ]);
      const byMonth = new Map(perMonth.rows.map((r) => [r.month, r]));
      const months = monthsOf(from, to).map((month) => {
        const r = byMonth.get(month);
        return { month, count: Number(r?.n ?? 0), amount: pounds(r?.amount) };
      });
      return {
        from,
        to,
        months,
        total_count: months.reduce((n, m) => n + m.count, 0),
        total_amount: pounds(perMonth.rows.reduce((n, r) => n + Number(r.amount), 0)),
        payments: list.rows.map((r) => ({
          id: r.id,
          subscription_id: r.subscription_id,
          email: r.email,
          package_name: r.package_name,
          amount: pounds(r.amount),
          provider_invoice_id: r.provider_invoice_id,
          occurred_at: new Date(r.occurred_at).toISOString(),
        })),
      };
    },
  );
}
