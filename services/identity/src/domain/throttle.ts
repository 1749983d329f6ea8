// Sign-in throttling rules (docs/decisions.md, "Sign-in delays instead of lockouts").
//
// Every attempt that does not sign in counts, once, against the account it named (known or not) and
// against the client's address. Each `limit`-th count within the window starts a delay: 1 minute, then
// 2, 4, 8 ... up to the cap. During an account's delay its sign-ins are refused (without checking the
// password) from every address that has not signed in to that account recently; an address that has
// (within KNOWN_ADDRESS_DAYS) still signs in, so a stranger's guesses cannot lock a user out. An
// address's own delay applies to everything from it.

export type ThrottleScope = 'user' | 'admin' | 'address';

export interface ThrottleRule {
  /** Attempts that start a delay (every limit-th attempt within the window starts the next one). */
  limit: number;
  windowMinutes: number;
  firstDelayMinutes: number;
  maxDelayMinutes: number;
}

export const ACCOUNT_RULE: ThrottleRule = { limit: 5, windowMinutes: 15, firstDelayMinutes: 1, maxDelayMinutes: 60 };
/** An address spraying guesses over many accounts (a household or office shares one: a higher limit). */
export const ADDRESS_RULE: ThrottleRule = { limit: 30, windowMinutes: 15, firstDelayMinutes: 1, maxDelayMinutes: 60 };

export const RULES: Record<ThrottleScope, ThrottleRule> = { user: ACCOUNT_RULE, admin: ACCOUNT_RULE, address: ADDRESS_RULE };

/** A successful sign-in makes its address known to the account for this long. */
export const KNOWN_ADDRESS_DAYS = 30;
/** After a day without failures, delays start again from the first (shortest) one. */
export const LEVEL_RESET_HOURS = 24;

/** How long the delay at `level` (0 = the first) lasts, in minutes: doubling, capped. */
export function delayMinutes(rule: ThrottleRule, level: number): number {
  const doubled = rule.firstDelayMinutes * 2 ** Math.max(0, Math.min(level, 30));
  return Math.min(rule.maxDelayMinutes, doubled);
}

/** Whether this attempt's count is the one that starts a delay. */
export function startsDelay(rule: ThrottleRule, failuresInWindow: number): boolean {
  return failuresInWindow > 0 && failuresInWindow % rule.limit === 0;
}

export interface ThrottleRow {
  scope: ThrottleScope;
  key: string;
  failures: number;
  delayLevel: number;
  delayUntil: Date | null;
}

/**
 * The delay that refuses this attempt, if any: the address's own, or the account's when the address
 * is not known to the account. The longest wins.
 */
export function blockingDelay(
  o: { account: ThrottleRow | null; address: ThrottleRow | null; knownAddress: boolean },
  now = new Date(),
): Date | null {
  const active = (r: ThrottleRow | null) => (r?.delayUntil && r.delayUntil > now ? r.delayUntil : null);
  const candidates = [active(o.address), o.knownAddress ? null : active(o.account)].filter((d): d is Date => d !== null);
  if (candidates.length === 0) return null;
  return new Date(Math.max(...candidates.map((d) => d.getTime())));
}

/** Whole minutes left (at least 1), for the message; seconds for Retry-After. */
export function waitOf(until: Date, now = new Date()): { minutes: number; seconds: number } {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return { seconds, minutes: Math.max(1, Math.ceil(seconds / 60)) };
}
