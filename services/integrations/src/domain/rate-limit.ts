import type { IntegrationType } from '@countinghouse/proto';

/**
 * The one rate-limit policy of the provider calls.
 *
 * - Xero: 60 calls a minute and 5,000 a day per organisation (tenant), and `Retry-After` (seconds) on
 *   its 429 (developer.xero.com/documentation/guides/oauth2/limits). We keep a budget per tenant so a
 *   practice-wide sync is spread out instead of being refused; a 429 still waits what Xero says.
 * - QuickBooks Online: Intuit asks to wait 60 s after a 429 (throttling: 500 requests a minute per realm,
 *   10 concurrent); a longer `Retry-After` wins.
 * - Any provider: `Retry-After` is either delay-seconds or an HTTP date (RFC 9110 section 10.2.3).
 */
export interface CallBudget {
  perMinute: number;
  perDay: number;
}

export const XERO_BUDGET: CallBudget = { perMinute: 60, perDay: 5_000 };
export const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 60 * 60_000;
/** Intuit's documented wait after a 429; also Xero's when it sends no Retry-After (its minute window). */
export const DEFAULT_429_WAIT_MS = 60_000;
/** A sync keeps waiting for the provider for at most this long after it was asked for, then fails. */
export const MAX_SYNC_WAIT_MS = 48 * 60 * 60_000;

/** `Retry-After` in milliseconds from `now`: delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (!Number.isFinite(at) || !/[a-z]/i.test(v)) return null;
  return Math.max(0, at - now.getTime());
}

/** When to try again after a 429 (or a 503 with Retry-After) from this provider. */
export function retryAtAfterLimit(provider: IntegrationType, retryAfter: string | null | undefined, now: Date): Date {
  const said = parseRetryAfter(retryAfter, now);
  const wait = provider === 'quickbooks' ? Math.max(said ?? 0, DEFAULT_429_WAIT_MS) : (said ?? DEFAULT_429_WAIT_MS);
  return new Date(now.getTime() + wait);
}
