import type { Role } from '@countinghouse/proto';

/**
 * The practice's two-factor rule for the staff side (issue 32). Not a statutory rule: HMRC's fraud
 * prevention headers (Gov-Client-Multi-Factor) and the practice's duty to keep clients' tax papers safe
 * (UK GDPR art. 32, "appropriate technical measures") are why a practice turns it on. From the chosen
 * date (a calendar day in London, inclusive) a person holding any staff-side role must have a second
 * factor; clients never need one (optional for them).
 */
export const TWO_FACTOR_REQUIRED_ROLES: readonly Role[] = ['admin', 'manager', 'staff', 'accountant', 'mlro'];

/** Whether any of these roles is one the rule covers. */
export function holdsRequiredRole(roles: readonly string[]): boolean {
  return roles.some((r) => TWO_FACTOR_REQUIRED_ROLES.some((required) => required === r));
}

/** Today's calendar day in London as YYYY-MM-DD. */
export function londonDay(at: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** Whether this person must set up a second factor before anything else. */
export function mustEnrolSecondFactor(o: {
  roles: readonly string[];
  requiredFrom: string | null;
  today: string;
  hasSecondFactor: boolean;
}): boolean {
  if (o.hasSecondFactor || !o.requiredFrom) return false;
  if (o.today < o.requiredFrom) return false;
  return holdsRequiredRole(o.roles);
}
