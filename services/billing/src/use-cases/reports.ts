import { londonDayStart } from '@countinghouse/kit';
import {
  FAILED_PAYMENTS_LIST_LIMIT,
  addDays,
  londonToday,
  monthEnd,
  monthsOf,
  pounds,
  type FailedPaymentsReport,
  type MrrReport,
} from '@countinghouse/proto';
import { failedPaymentsBetween, monthlyRevenue, mrrAt } from '../db/queries.js';
import type { BillingDeps } from './deps.js';

type Range = { from: string; to: string };

/** Monthly recurring revenue at the end of each month of the range (or today, for the month running). */
export async function reportMrr(d: Pick<BillingDeps, 'db'>, { from, to }: Range): Promise<MrrReport> {
  const today = londonToday();
  // Each month is measured at the end of its last day in the range, or of today while it runs.
  const points = monthsOf(from, to)
    .filter((m) => `${m}-01` <= today)
    .map((month) => {
      const end = [monthEnd(month), to, today].sort()[0]!;
      return { month, as_of: end, until: addDays(end, 1) };
    });
  const [series, now] = await Promise.all([
    mrrAt(
      d.db,
      points.map((p) => p.until),
    ),
    monthlyRevenue(d.db),
  ]);
  return {
    from,
    to,
    months: points.map((p, idx) => {
      const r = series[idx];
      return { month: p.month, as_of: p.as_of, mrr: pounds(r?.mrr), subscriptions: Number(r?.n ?? 0) };
    }),
    active_mrr_now: now.monthly_revenue,
    overdue_mrr_now: now.overdue_fees,
  };
}

/** Failed payments in the range: count and amount per month, and the newest of them. */
export async function reportFailedPayments(d: Pick<BillingDeps, 'db'>, { from, to }: Range): Promise<FailedPaymentsReport> {
  const { perMonth, list } = await failedPaymentsBetween(
    d.db,
    londonDayStart(from),
    londonDayStart(addDays(to, 1)),
    FAILED_PAYMENTS_LIST_LIMIT,
  );
  const byMonth = new Map(perMonth.map((r) => [r.month, r]));
  const months = monthsOf(from, to).map((month) => {
    const r = byMonth.get(month);
    return { month, count: Number(r?.n ?? 0), amount: pounds(r?.amount) };
  });
  return {
    from,
    to,
    months,
    total_count: months.reduce((n, m) => n + m.count, 0),
    total_amount: pounds(perMonth.reduce((n, r) => n + Number(r.amount), 0)),
    payments: list.map((r) => ({
      id: r.id,
      subscription_id: r.subscription_id,
      email: r.email,
      package_name: r.package_name,
      amount: pounds(r.amount),
      provider_invoice_id: r.provider_invoice_id,
      occurred_at: new Date(r.occurred_at).toISOString(),
    })),
  };
}
