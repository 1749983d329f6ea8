import { enqueueEvent, type DbOrTx } from '@countinghouse/kit';
import type {
  Actor,
  AdminSubscription,
  BillingProvider,
  EventData,
  MonthlyRevenue,
  SubscriptionCheck,
  SubscriptionStatus,
} from '@countinghouse/proto';
import { REPORT_TIME_ZONE } from '@countinghouse/proto';
import { and, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { acceptedTerms, checkoutSessions, customers, payments, SCHEMA, subscriptions, webhookEvents } from './schema.js';

export type { DbOrTx, Tx } from '@countinghouse/kit';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type SessionRow = typeof checkoutSessions.$inferSelect;

/** The person's subscription that is not cancelled, if any (at most one: a partial unique index). */
export async function findLiveSubscription(
  db: DbOrTx,
  userId: string,
  opts: { forUpdate?: boolean } = {},
): Promise<SubscriptionRow | null> {
  const q = db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), ne(subscriptions.status, 'cancelled')))
    .limit(1);
  const [row] = opts.forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

export async function findByProviderSubscription(
  db: DbOrTx,
  provider: BillingProvider,
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

export async function emailOf(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: customers.email }).from(customers).where(eq(customers.userId, userId)).limit(1);
  return row?.email ?? null;
}

export function toCheck(row: SubscriptionRow | null): SubscriptionCheck {
  if (!row) return { subscribed: false, package_name: null, subscription_end: null, status: null, monthly_fee: null, provider: null };
  return {
    subscribed: row.status === 'active' || row.status === 'overdue',
    package_name: row.packageName,
    subscription_end: row.currentPeriodEnd?.toISOString() ?? null,
    status: row.status,
    monthly_fee: row.monthlyFee,
    provider: row.provider,
  };
}

export function toAdmin(row: SubscriptionRow): AdminSubscription {
  return {
    id: row.id,
    user_id: row.userId,
    email: row.email,
    package_name: row.packageName,
    monthly_fee: row.monthlyFee,
    status: row.status,
    provider: row.provider,
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
    status: row.status,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    provider: row.provider,
  };
}

type BillingEventType =
  'billing.subscription_activated' | 'billing.subscription_updated' | 'billing.payment_failed' | 'billing.subscription_cancelled';

/** Write a billing event into the outbox, in the caller's transaction; keyed by person so one person's events stay in order. */
export async function publish<T extends BillingEventType>(tx: DbOrTx, type: T, data: EventData<T>, actor: Actor) {
  return enqueueEvent(tx, SCHEMA, type, data, { actor, key: data.userId });
}

const toPounds = (v: string | null | undefined) => Math.round(Number(v ?? 0) * 100) / 100;

/**
 * The practice's monthly revenue: the one place it is computed (control panel, staff portal,
 * /admin/billing and Reports all read it). Active subscriptions' monthly fees; overdue apart.
 */
export async function monthlyRevenue(db: DbOrTx): Promise<MonthlyRevenue> {
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

/** What a person typed at sign-up (null each when none was given or not yet known). */
export async function customerNames(db: DbOrTx, userId: string) {
  const [row] = await db.select().from(customers).where(eq(customers.userId, userId)).limit(1);
  return {
    contactName: row?.name ?? null,
    companyName: row?.companyName ?? null,
    businessType: row?.businessType ?? null,
    companyNumber: row?.companyNumber ?? null,
    phone: row?.phone ?? null,
  };
}

// ---- customers (from identity.user_registered) ----

export async function upsertCustomer(
  tx: DbOrTx,
  c: {
    userId: string;
    email: string;
    name: string | null;
    companyName: string | null;
    businessType?: string | null;
    companyNumber?: string | null;
    phone?: string | null;
  },
): Promise<void> {
  await tx
    .insert(customers)
    .values(c)
    .onConflictDoUpdate({
      target: customers.userId,
      set: {
        email: c.email,
        name: c.name,
        companyName: c.companyName,
        businessType: c.businessType ?? null,
        companyNumber: c.companyNumber ?? null,
        phone: c.phone ?? null,
        updatedAt: sql`now()`,
      },
    });
}

// ---- accepted terms (engagement.terms_accepted, issue 33) ----

export async function recordAcceptedTerms(
  tx: DbOrTx,
  t: { userId: string; packageName: string; letterId: string; version: number; signedAt: Date },
): Promise<void> {
  await tx
    .insert(acceptedTerms)
    .values(t)
    .onConflictDoUpdate({
      target: [acceptedTerms.userId, acceptedTerms.packageName],
      set: { letterId: t.letterId, version: t.version, signedAt: t.signedAt },
      setWhere: sql`${acceptedTerms.version} < excluded.version`,
    });
}

export async function hasAcceptedTerms(db: DbOrTx, userId: string, packageName: string): Promise<boolean> {
  const rows = await db
    .select({ v: acceptedTerms.version })
    .from(acceptedTerms)
    .where(and(eq(acceptedTerms.userId, userId), eq(acceptedTerms.packageName, packageName)))
    .limit(1);
  return rows.length === 1;
}

// ---- checkout sessions ----

export async function insertCheckoutSession(db: DbOrTx, row: typeof checkoutSessions.$inferInsert): Promise<void> {
  await db.insert(checkoutSessions).values(row);
}

export async function findCheckoutSession(db: DbOrTx, id: string): Promise<SessionRow | null> {
  const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).limit(1);
  return row ?? null;
}

/** The session, locked until the transaction ends (completions of one session run one at a time). */
export async function lockCheckoutSession(tx: DbOrTx, id: string): Promise<SessionRow | null> {
  const [row] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).for('update').limit(1);
  return row ?? null;
}

export async function updateCheckoutSession(
  tx: DbOrTx,
  id: string,
  set: Partial<typeof checkoutSessions.$inferInsert>,
): Promise<SessionRow | null> {
  const [row] = await tx.update(checkoutSessions).set(set).where(eq(checkoutSessions.id, id)).returning();
  return row ?? null;
}

/** An open (or processing) checkout's payment is being confirmed, or failed; a completed one stays completed. */
export async function markCheckoutSession(tx: DbOrTx, id: string, status: 'processing' | 'failed', from: Array<'open' | 'processing'>) {
  await tx
    .update(checkoutSessions)
    .set({ status })
    .where(and(eq(checkoutSessions.id, id), inArray(checkoutSessions.status, from)));
}

// ---- subscriptions and payments ----

export async function findSubscription(db: DbOrTx, id: string): Promise<SubscriptionRow | null> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
  return row ?? null;
}

/** The person's most recently changed subscription (cancelled ones included). */
export async function findLatestSubscription(db: DbOrTx, userId: string): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(sql`${subscriptions.updatedAt} desc`)
    .limit(1);
  return row ?? null;
}

export async function insertSubscription(tx: DbOrTx, values: typeof subscriptions.$inferInsert): Promise<SubscriptionRow> {
  const [row] = await tx.insert(subscriptions).values(values).returning();
  return row!;
}

export async function updateSubscription(tx: DbOrTx, id: string, set: PgUpdateSetSource<typeof subscriptions>): Promise<SubscriptionRow> {
  const [row] = await tx.update(subscriptions).set(set).where(eq(subscriptions.id, id)).returning();
  return row!;
}

/** A payment; one per provider invoice (a replayed invoice event records nothing twice). */
export async function insertPayment(tx: DbOrTx, values: typeof payments.$inferInsert): Promise<void> {
  await tx.insert(payments).values(values).onConflictDoNothing();
}

/** Record a provider's event id: false when it was recorded before (a replay). */
export async function recordWebhookEvent(tx: DbOrTx, eventId: string, type: string): Promise<boolean> {
  const inserted = await tx.insert(webhookEvents).values({ eventId, type }).onConflictDoNothing().returning({ id: webhookEvents.eventId });
  return inserted.length > 0;
}

// ---- the back office ----

export async function listSubscriptions(db: DbOrTx, q: { status?: SubscriptionStatus; page: number; pageSize: number }) {
  const where = q.status ? eq(subscriptions.status, q.status) : undefined;
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(subscriptions)
      .where(where)
      .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(subscriptions)
      .where(where),
  ]);
  return { rows, total: total[0]?.n ?? 0 };
}

export async function countSubscriptionsByStatus(db: DbOrTx) {
  return db
    .select({ status: subscriptions.status, n: sql<number>`count(*)::int` })
    .from(subscriptions)
    .groupBy(subscriptions.status);
}

/** Money collected in the last 30 days, in pounds. */
export async function collectedLast30Days(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${payments.amount}), 0)` })
    .from(payments)
    .where(sql`${payments.status} = 'paid' and ${payments.occurredAt} > now() - interval '30 days'`);
  return Math.round(Number(row?.total ?? 0) * 100) / 100;
}

export async function recentFailedPayments(db: DbOrTx, limit: number) {
  return db
    .select({ p: payments, s: subscriptions })
    .from(payments)
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
    .where(eq(payments.status, 'failed'))
    .orderBy(desc(payments.occurredAt))
    .limit(limit);
}

// ---- reports ----

/**
 * Monthly recurring revenue at each instant (the start of each London day in `untils`, in order):
 * subscriptions created before it and not yet cancelled at it, pending ones left out.
 */
export async function mrrAt(db: DbOrTx, untils: string[]): Promise<Array<{ mrr: string; n: string }>> {
  if (untils.length === 0) return [];
  const { rows } = await db.execute<{ i: string; mrr: string; n: string }>(sql`
    select p.i, coalesce(sum(s.monthly_fee), 0) as mrr, count(s.id) as n
    from unnest(string_to_array(${untils.join(',')}, ',')::date[]) with ordinality as p(until, i)
    left join billing.subscriptions s
      on s.status <> 'pending'
     and s.created_at < (p.until::timestamp at time zone ${REPORT_TIME_ZONE})
     and coalesce(s.cancelled_at, case when s.status = 'cancelled' then s.updated_at end, 'infinity')
         >= (p.until::timestamp at time zone ${REPORT_TIME_ZONE})
    group by p.i order by p.i`);
  return rows;
}

/** Failed payments between two instants: per London month, and the newest `limit` of them. */
export async function failedPaymentsBetween(db: DbOrTx, from: SQL, until: SQL, limit: number) {
  // payments_status_occurred_idx (status, occurred_at desc) serves both.
  const inRange: SQL = sql`p.status = 'failed' and p.occurred_at >= ${from} and p.occurred_at < ${until}`;
  const [perMonth, list] = await Promise.all([
    db.execute<{ month: string; n: string; amount: string }>(sql`
      select to_char(p.occurred_at at time zone ${REPORT_TIME_ZONE}, 'YYYY-MM') as month, count(*) as n, sum(p.amount) as amount
      from billing.payments p where ${inRange} group by 1`),
    db.execute<{
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
      limit ${limit}`),
  ]);
  return { perMonth: perMonth.rows, list: list.rows };
}
