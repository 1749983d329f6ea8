// Calendar days in the practice's time zone (Europe/London), as YYYY-MM-DD strings: one copy for every
// service that dates letters, requests and reminders (browser-safe: Intl only). addDays is reports.ts's.

const london = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The London calendar date of an instant (a letter sent at 23:30 UTC on 30 Jun is sent on 1 Jul, BST). */
export function londonDate(at: Date): string {
  return london.format(at);
}

/** Whole days from a to b (b later: positive). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 2026-12-31 → 31 Dec 2026 (en-GB, no leading zero). */
export function enGbDate(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return `${d} ${MONTHS[Number(m) - 1]} ${y}`;
}
