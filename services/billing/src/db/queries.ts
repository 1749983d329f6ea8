import { enqueueEvent, type Db } from '@countinghouse/kit';
import type { Actor, AdminSubscription, EventData, MonthlyRevenue, SubscriptionCheck, SubscriptionStatus } from '@countinghouse/proto';
import { and, eq, ne, sql } from 'drizzle-orm';
import { customers, SCHEMA, subscriptions } from './schema.js';

export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** The person's subscription that is not cancelled, if any (at most one: a partial unique index). */
export async function findLiveSubscription(db: Db, userId: string, opts: { forUpdate?: boolean } = {}): Promise<SubscriptionRow | null> {
  const q = db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), ne(subscriptions.status, 'cancelled')))
    .limit(1);
  const [row] = opts.forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

export async function findByProviderSubscription(
  db: Db,
  provider: string,
  providerSubscriptionId: string,
): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, providerSubscriptionId)))
    .for('update')
    .limit(1);
  return row ?? null;
}

export async function emailOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: customers.email }).from(customers).where(eq(customers.userId, userId)).limit(1);
  return row?.email ?? null;
}

export function toCheck(row: SubscriptionRow | null): SubscriptionCheck {
  if (!row) return { subscribed: false, package_name: null, subscription_end: null, status: null, monthly_fee: null, provider: null };
  return {
    subscribed: row.status === 'active' || row.status === 'overdue',
    package_name: row.packageName,
    subscription_end: row.currentPeriodEnd?.toISOString() ?? null,
    status: row.status as SubscriptionStatus,
    monthly_fee: row.monthlyFee,
    provider: row.provider as 'stripe' | 'test',
  };
}

export function toAdmin(row: SubscriptionRow): AdminSubscription {
  return {
    id: row.id,
    user_id: row.userId,
    email: row.email,
    package_name: row.packageName,
    monthly_fee: row.monthlyFee,
    status: row.status as SubscriptionStatus,
    provider: row.provider as 'stripe' | 'test',
    provider_subscription_id: row.providerSubscriptionId,
    current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The state every billing event carries. */
export function eventState(row: SubscriptionRow) {
  return {
    subscriptionId: row.id,
    userId: row.userId,
    email: row.email,
    packageName: row.packageName,
    monthlyFee: row.monthlyFee,
    status: row.status as SubscriptionStatus,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    provider: row.provider as 'stripe' | 'test',
  };
}

type BillingEventType =
  'billing.subscription_activated' | 'billing.subscription_updated' | 'billing.payment_failed' | 'billing.subscription_cancelled';

/** Write a billing event into the outbox, in the caller's transaction; keyed by person so one person's events stay in order. */
export async function publish<T extends BillingEventType>(tx: Db, type: T, data: EventData<T>, actor: Actor) {
  return enqueueEvent(tx, SCHEMA, type, data, { actor, key: (data as { userId: string }).userId });
}

const toPounds = (v: string | null | undefined) => Math.round(Number(v ?? 0) * 100) / 100;

/**
 * The practice's monthly revenue: the one place it is computed (control panel, staff portal,
 * /admin/billing and Reports all read it). Active subscriptions' monthly fees; overdue apart.
 */
export async function monthlyRevenue(db: Db): Promise<MonthlyRevenue> {
  const { rows } = await db.execute<{ active: string; n_active: number; overdue: string; n_overdue: number }>(sql`
    select coalesce(sum(monthly_fee) filter (where status = 'active'), 0)::text as active,
           (count(*) filter (where status = 'active'))::int as n_active,
           coalesce(sum(monthly_fee) filter (where status = 'overdue'), 0)::text as overdue,
           (count(*) filter (where status = 'overdue'))::int as n_overdue
    from ${subscriptions} where status in ('active', 'overdue')`);
  const r = rows[0];
  return {
    monthly_revenue: toPounds(r?.active),
    active_subscriptions: Number(r?.n_active ?? 0),
    overdue_fees: toPounds(r?.overdue),
    overdue_subscriptions: Number(r?.n_overdue ?? 0),
  };
}

/** The name and company a person typed at sign-up (null each when none was given or not yet known). */
export async function customerNames(db: Db, userId: string): Promise<{ contactName: string | null; companyName: string | null }> {
  const [row] = await db
    .select({ name: customers.name, companyName: customers.companyName })
    .from(customers)
    .where(eq(customers.userId, userId))
    .limit(1);
  return { contactName: row?.name ?? null, companyName: row?.companyName ?? null };
}
