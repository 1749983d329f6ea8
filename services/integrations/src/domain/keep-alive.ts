import type { IntegrationType } from '@countinghouse/proto';

/**
 * How long a refresh token lives unused: Xero's expire 60 days after issue (each refresh issues a new
 * one), Intuit's 100 days (its token answer's x_refresh_token_expires_in, which wins when present).
 */
export const REFRESH_TOKEN_LIFETIME_DAYS: Record<IntegrationType, number> = { xero: 60, quickbooks: 100 };

/** The daily keep-alive refreshes every grant whose refresh token would lapse within this many days. */
export const KEEP_ALIVE_WITHIN_DAYS = 14;

const DAY_MS = 24 * 60 * 60_000;

/** When a refresh token issued at `now` lapses unused. */
export function refreshTokenExpiry(provider: IntegrationType, refreshExpiresInSeconds: number | null, now: Date): Date {
  const ms = refreshExpiresInSeconds ? refreshExpiresInSeconds * 1000 : REFRESH_TOKEN_LIFETIME_DAYS[provider] * DAY_MS;
  return new Date(now.getTime() + ms);
}

/** The keep-alive's cut-off: grants lapsing before this are refreshed today. */
export function keepAliveHorizon(now: Date): Date {
  return new Date(now.getTime() + KEEP_ALIVE_WITHIN_DAYS * DAY_MS);
}

/** A grant stored before refresh_expires_at was kept: its expiry counted from its last update. */
export function assumedExpiry(provider: IntegrationType, storedExpiry: Date | null, updatedAt: Date): Date {
  return storedExpiry ?? new Date(updatedAt.getTime() + REFRESH_TOKEN_LIFETIME_DAYS[provider] * DAY_MS);
}
