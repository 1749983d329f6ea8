import { Type, type Static } from '@sinclair/typebox';
import { rolesFor } from './permissions.js';

// What every report endpoint shares: the date range, its rules and the calendar helpers that fill in
// empty months and weeks. Browser-safe: the date picker uses the same rules as the services.

/**
 * Reports are for administrators only (admin panel accounts and people with an active admin grant),
 * from the permissions table the User Roles page shows.
 */
export const REPORT_ROLES = rolesFor('reports');

/** The longest range a report accepts, in years. */
export const REPORT_MAX_YEARS = 5;

/** Report days, weeks and months are the practice's: Europe/London. */
export const REPORT_TIME_ZONE = 'Europe/London';

export const REPORT_MESSAGES = {
  badFrom: 'Enter the start date as YYYY-MM-DD (for example 2026-01-31).',
  badTo: 'Enter the end date as YYYY-MM-DD (for example 2026-12-31).',
  fromAfterTo: 'The start date must be on or before the end date.',
  rangeTooLong: `Choose a date range of at most ${REPORT_MAX_YEARS} years.`,
  loadFailed: 'The report could not be loaded. Please try again.',
} as const;

/**
 * from and to are calendar days (YYYY-MM-DD, both included, Europe/London). The schema only bounds
 * the text; `reportRangeProblem` gives the clear message for a wrong date, order or length.
 */
export const ReportRangeQuerySchema = Type.Object(
  {
    from: Type.String({ minLength: 1, maxLength: 20 }),
    to: Type.String({ minLength: 1, maxLength: 20 }),
  },
  { additionalProperties: false },
);
export type ReportRangeQuery = Static<typeof ReportRangeQuerySchema>;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not). */
export function isCalendarDay(s: string): boolean {
  const m = DAY.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function parseDay(s: string): Date {
  // A missing part is NaN: an invalid date.
  const [y = NaN, m = NaN, d = NaN] = s.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}

function dayText(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The day `years` later (29 Feb moves to 1 Mar). */
export function addYears(day: string, years: number): string {
  const d = parseDay(day);
  return dayText(new Date(Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate())));
}

export function addDays(day: string, days: number): string {
  const d = parseDay(day);
  d.setUTCDate(d.getUTCDate() + days);
  return dayText(d);
}

/** What is wrong with a range, as the message and the field, or null when it is fine. */
export function reportRangeProblem(from: string, to: string): { path: 'from' | 'to'; message: string } | null {
  if (!isCalendarDay(from)) return { path: 'from', message: REPORT_MESSAGES.badFrom };
  if (!isCalendarDay(to)) return { path: 'to', message: REPORT_MESSAGES.badTo };
  if (from > to) return { path: 'to', message: REPORT_MESSAGES.fromAfterTo };
  if (to > addYears(from, REPORT_MAX_YEARS)) return { path: 'to', message: REPORT_MESSAGES.rangeTooLong };
  return null;
}

/** Today in London, YYYY-MM-DD. */
export function londonToday(now: Date = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: REPORT_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The default range: the last 12 months, from the first day of the month 11 months ago to today. */
export function defaultReportRange(now: Date = new Date()): ReportRangeQuery {
  const to = londonToday(now);
  const d = parseDay(to);
  const from = dayText(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11, 1)));
  return { from, to };
}

/** Every month the range touches, 'YYYY-MM', oldest first. */
export function monthsOf(from: string, to: string): string[] {
  const out: string[] = [];
  let y = Number(from.slice(0, 4));
  let m = Number(from.slice(5, 7));
  const last = to.slice(0, 7);
  for (;;) {
    const key = `${y}-${String(m).padStart(2, '0')}`;
    if (key > last) break;
    out.push(key);
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return out;
}

/** The last day of a month 'YYYY-MM'. */
export function monthEnd(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return dayText(new Date(Date.UTC(y, m, 0)));
}

/** The ISO week of a day: 'YYYY-Www' (the ISO week-numbering year can differ from the calendar year). */
export function isoWeekOf(day: string): string {
  const d = parseDay(day);
  const weekday = d.getUTCDay() || 7; // Monday 1 … Sunday 7
  const thursday = new Date(d);
  thursday.setUTCDate(d.getUTCDate() + 4 - weekday);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 / 7) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The Monday starting the ISO week that holds `day`. */
export function weekStartOf(day: string): string {
  const weekday = parseDay(day).getUTCDay() || 7;
  return addDays(day, 1 - weekday);
}

/** Every ISO week the range touches, as its label and Monday, oldest first. */
export function weeksOf(from: string, to: string): { week: string; week_start: string }[] {
  const out: { week: string; week_start: string }[] = [];
  for (let start = weekStartOf(from); start <= to; start = addDays(start, 7)) out.push({ week: isoWeekOf(start), week_start: start });
  return out;
}

/** Money in reports: pounds, rounded to pence. */
export function pounds(n: number | string | null | undefined): number {
  return Math.round(Number(n ?? 0) * 100) / 100;
}

/** A share as a fraction 0…1, four decimals (0 when there is nothing to divide). */
export function ratio(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0;
}

export const ReportRangeEcho = {
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
};
