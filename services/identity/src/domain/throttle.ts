/** Sign-in lockout rules: 5 failures within 15 minutes lock the e-mail for 15 minutes. */
export const LOCKOUT = { maxFailures: 5, windowMinutes: 15, lockMinutes: 15 } as const;

export interface ThrottleState {
  failures: number;
  windowStart: Date;
  lockedUntil: Date | null;
}

export function isLocked(s: ThrottleState | null, now = new Date()): boolean {
  return Boolean(s?.lockedUntil && s.lockedUntil > now);
}

/** The state after one more failure. */
export function afterFailure(s: ThrottleState | null, now = new Date()): ThrottleState {
  const windowOpen = s && now.getTime() - s.windowStart.getTime() < LOCKOUT.windowMinutes * 60_000;
  const failures = windowOpen ? s.failures + 1 : 1;
  const windowStart = windowOpen ? s.windowStart : now;
  const lockedUntil = failures >= LOCKOUT.maxFailures ? new Date(now.getTime() + LOCKOUT.lockMinutes * 60_000) : null;
  return { failures, windowStart, lockedUntil };
}
