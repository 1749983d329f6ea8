import type { AdminSubscriptionList, BillingSummary, SubscriptionStatus } from '@countinghouse/proto';
import {
  collectedLast30Days,
  countSubscriptionsByStatus,
  listSubscriptions,
  monthlyRevenue,
  recentFailedPayments,
  toAdmin,
} from '../db/queries.js';
import type { BillingDeps } from './deps.js';

/** /admin/billing's list: every subscription, newest first, a page at a time. */
export async function listAllSubscriptions(
  d: Pick<BillingDeps, 'db'>,
  q: { status?: SubscriptionStatus; page: number; pageSize: number },
): Promise<AdminSubscriptionList> {
  const { rows, total } = await listSubscriptions(d.db, q);
  return { subscriptions: rows.map(toAdmin), total, page: q.page, page_size: q.pageSize };
}

/** Monthly recurring revenue, counts by status, money collected in 30 days, the latest failed payments. */
export async function summariseBilling(d: Pick<BillingDeps, 'db' | 'provider'>): Promise<BillingSummary> {
  const [revenue, byStatus, collected, failed] = await Promise.all([
    monthlyRevenue(d.db),
    countSubscriptionsByStatus(d.db),
    collectedLast30Days(d.db),
    recentFailedPayments(d.db, 50),
  ]);
  const count = (s: string) => byStatus.find((r) => r.status === s)?.n ?? 0;
  return {
    mrr: revenue.monthly_revenue,
    overdue_fees: revenue.overdue_fees,
    active: count('active'),
    overdue: count('overdue'),
    cancelled: count('cancelled'),
    pending: count('pending'),
    collected_30d: collected,
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
}
