import type { Db } from '@countinghouse/kit';
import { monthlyFeeFor, type SubscriptionStatus } from '@countinghouse/proto';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { customers, payments, subscriptions } from './db/schema.js';
import { TEST_SUBSCRIPTION_PREFIX } from './domain/subscriptions.js';

/** One demo client as the launcher hands it over (crm's demo list, as plain data). */
export interface DemoBillingClient {
  company: string;
  /** The contact's name, for billing.customers (optional). */
  contact?: string | null;
  email: string;
  /** No package: nothing to bill, skipped. */
  pkg: string | null;
  status: SubscriptionStatus;
  /** Registered this many days before `now`. */
  daysAgo: number;
}

const DAY = 24 * 60 * 60 * 1000;

/** The namespace of the demo's synthetic user ids (a fixed, arbitrary UUID). */
const DEMO_USER_NAMESPACE = '6f1c3a52-8d4e-4b7a-9c21-5e0d7a3b9f14';

/** A name-based (version 5) UUID: the same e-mail gives the same synthetic user id on every seed. */
export function demoUserId(email: string): string {
  const ns = Buffer.from(DEMO_USER_NAMESPACE.replace(/-/g, ''), 'hex');
  const h = createHash('sha1').update(ns).update(email.trim().toLowerCase()).digest().subarray(0, 16);
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** `from` plus k calendar months on the same day, clamped to the month's end (31 Jan + 1 → 28/29 Feb), in UTC. */
export function addMonths(from: Date, k: number): Date {
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth() + k;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = new Date(from);
  d.setUTCFullYear(y, m, Math.min(from.getUTCDate(), lastDay));
  return d;
}

/** The monthly anniversaries of `from` (from itself first) that are not after `until`. */
function anniversaries(from: Date, until: Date): Date[] {
  const out: Date[] = [];
  for (let k = 0; ; k++) {
    const d = addMonths(from, k);
    if (d.getTime() > until.getTime()) return out;
    out.push(d);
  }
}

/**
 * Give an empty billing schema the demo practice's subscriptions and payment history, so that
 * /admin/billing and the revenue reports agree with crm's demo clients: one subscription per client
 * with a package (test provider, a synthetic user id from the e-mail, the catalogue fee, created on
 * the registration date), a payment on each monthly anniversary up to `now` ('paid', and 'failed' for
 * the last one or two of an overdue client), cancelled ones stopped a few months ago, pending ones
 * never paid. Does nothing when billing has subscriptions already (advisory lock, like crm's seed).
 *
 * No events are published: crm already holds these clients (its own demo seed), and crm upserts a
 * client keyed on user_id from billing's events, so an event here would add a duplicate client for
 * each synthetic user. The outbox is left untouched on purpose.
 */
export async function seedBillingDemo(
  db: Db,
  clients: readonly DemoBillingClient[],
  now: Date = new Date(),
): Promise<{ seeded: boolean; subscriptions: number; payments: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('billing-demo-seed'))`);
    const { rows } = await tx.execute<{ n: number }>(sql`select count(*)::int as n from ${subscriptions}`);
    if ((rows[0]?.n ?? 0) > 0) return { seeded: false, subscriptions: 0, payments: 0 };
    let subs = 0;
    let paymentCount = 0;
    for (const [i, c] of clients.entries()) {
      if (!c.pkg) continue;
      const n = i + 1;
      const userId = demoUserId(c.email);
      const email = c.email.trim().toLowerCase();
      const fee = monthlyFeeFor(c.pkg);
      const created = new Date(now.getTime() - c.daysAgo * DAY);

      // The payment days, and when the subscription stopped (cancelled: a few months ago).
      let due = c.status === 'pending' ? [] : anniversaries(created, now);
      let cancelledAt: Date | null = null;
      if (c.status === 'cancelled') {
        const paidMonths = Math.max(1, due.length - 3);
        const next = addMonths(created, paidMonths);
        cancelledAt = new Date(Math.max(created.getTime() + DAY, Math.min(next.getTime() - 3 * DAY, now.getTime() - DAY)));
        due = due.filter((d) => d.getTime() <= cancelledAt!.getTime());
      }
      // Overdue: the last payment failed (the last two, after a few months), the first one was paid.
      const failed = c.status === 'overdue' ? Math.min(due.length >= 5 ? 2 : 1, Math.max(0, due.length - 1)) : 0;
      const last = due.at(-1);
      const currentPeriodEnd = c.status === 'pending' ? null : addMonths(created, due.length);
      const updatedAt = cancelledAt ?? last ?? created;

      await tx
        .insert(customers)
        .values({ userId, email, name: c.contact ?? null, updatedAt: created })
        .onConflictDoNothing();
      const [row] = await tx
        .insert(subscriptions)
        .values({
          userId,
          email,
          packageName: c.pkg,
          monthlyFee: fee,
          status: c.status,
          provider: 'test',
          providerSubscriptionId: `${TEST_SUBSCRIPTION_PREFIX}demo_${n}`,
          checkoutSessionId: `demo_${n}`,
          currentPeriodEnd,
          createdAt: created,
          updatedAt,
          cancelledAt,
        })
        .returning({ id: subscriptions.id });
      subs++;
      if (due.length > 0) {
        await tx.insert(payments).values(
          due.map((at, k) => ({
            subscriptionId: row!.id,
            providerInvoiceId: `in_demo_${n}_${k + 1}`,
            amount: fee,
            status: k >= due.length - failed ? 'failed' : 'paid',
            occurredAt: at,
          })),
        );
        paymentCount += due.length;
      }
    }
    return { seeded: true, subscriptions: subs, payments: paymentCount };
  });
}
