// The limits every form and every service share (issue 17.3): one place, so a form never allows what
// the server refuses (or the other way round). Browser-safe, no TypeBox.

/** How long a name, company name, title or search may be (characters, after trimming). */
export const NAME_MAX = 200;
/** The most employees a business may record (a number past any UK employer, far from an overflow). */
export const EMPLOYEES_MAX = 1_000_000;
/** RFC 5321's longest deliverable address (a 254-character path less the angle brackets). */
export const EMAIL_MAX = 254;
/** A phone number as typed (the rule in ./contact.ts); 20 is room for `+44 (0)20 7946 0321`. */
export const PHONE_TYPED_MIN = 7;
export const PHONE_TYPED_MAX = 20;
/** A phone number kept as another system gave it (staff entry, lead imports): stored, not checked. */
export const PHONE_STORED_MAX = 40;

/** Counts as people read them: 1,000,000. */
export function formatCount(n: number | null | undefined): string {
  return COUNT.format(n ?? 0);
}
const COUNT = new Intl.NumberFormat('en-GB');
