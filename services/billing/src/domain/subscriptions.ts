import type { SubscriptionStatus } from '@countinghouse/proto';

// Billing rules with no I/O.

/** Stripe's subscription status in our four (spec section 4): past_due and unpaid are overdue. */
export function statusFromStripe(status: string): SubscriptionStatus {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
    case 'unpaid':
      return 'overdue';
    case 'canceled':
    case 'incomplete_expired':
      return 'cancelled';
    default:
      // incomplete, paused
      return 'pending';
  }
}

/** The same day next month, clamped to the month's end (31 Jan → 28/29 Feb), in UTC. */
export function addOneMonth(from: Date): Date {
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = new Date(from);
  d.setUTCFullYear(y, m, Math.min(from.getUTCDate(), lastDay));
  return d;
}

/** Pounds to pence for Stripe's unit_amount; fees are whole pence. */
export function toPence(pounds: number): number {
  return Math.round(pounds * 100);
}

export function fromPence(pence: number | null | undefined): number {
  return Math.round(pence ?? 0) / 100;
}

/** Seconds since the epoch (Stripe) to a Date, or null. */
export function fromUnix(seconds: number | null | undefined): Date | null {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : null;
}

/** A status a person can change packages from: paying, or behind on a payment. */
export function isLive(status: string): boolean {
  return status === 'active' || status === 'overdue';
}

/** The random part of our test checkout and test subscription ids. */
export const TEST_SESSION_PREFIX = 'cs_local_';
export const TEST_SUBSCRIPTION_PREFIX = 'sub_local_';

/**
 * A field of a provider object read by path, whatever its declared type: Stripe moves fields between
 * API versions (a subscription's period end, an invoice's subscription), and the SDK's types follow
 * only the newest.
 */
export function pathOf(value: unknown, ...path: string[]): unknown {
  let v = value;
  for (const key of path) {
    if (!v || typeof v !== 'object') return undefined;
    v = Reflect.get(v, key);
  }
  return v;
}

/** A Unix time read by path (see pathOf), or undefined. */
export function unixAt(value: unknown, ...path: string[]): number | undefined {
  const v = pathOf(value, ...path);
  return typeof v === 'number' ? v : undefined;
}
