// Calendar dates as 'YYYY-MM-DD' strings: no time zone can shift them. Pure functions.

export type IsoDate = string;

export interface Ymd {
  y: number;
  m: number; // 1..12
  d: number;
}

export function parseDate(iso: IsoDate): Ymd {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) throw new Error(`not a date: ${iso}`);
  return { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
}

export function formatYmd({ y, m, d }: Ymd): IsoDate {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(y: number, m: number): number {
  return m === 2 ? (isLeapYear(y) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
}

export function isLastDayOfMonth(iso: IsoDate): boolean {
  const { y, m, d } = parseDate(iso);
  return d === daysInMonth(y, m);
}

export function lastDayOfMonth(y: number, m: number): IsoDate {
  return formatYmd({ y, m, d: daysInMonth(y, m) });
}

/** Shift a (year, month) by n months. */
export function shiftMonth(y: number, m: number, n: number): { y: number; m: number } {
  const idx = y * 12 + (m - 1) + n;
  return { y: Math.floor(idx / 12), m: (idx % 12) + 1 };
}

/**
 * n calendar months after a date, the "corresponding date" rule: the same day of the month, or the
 * last day of the month when that month has no such day (31 Aug + 6 months → 28/29 Feb).
 */
export function addMonths(iso: IsoDate, n: number): IsoDate {
  const { y, m, d } = parseDate(iso);
  const t = shiftMonth(y, m, n);
  return formatYmd({ y: t.y, m: t.m, d: Math.min(d, daysInMonth(t.y, t.m)) });
}

/**
 * n months after a date under Companies Act 2006 s.443 ("Calculation of period allowed"): the
 * corresponding date in the appropriate month (s.443(2)); when the start is the last day of a month,
 * the last day of the appropriate month (s.443(3)); when there is no corresponding date (29th/30th/31st
 * into a shorter month), the last day of that month (s.443(4)). HMRC counts Corporation Tax periods
 * the same way (CTM92010: period ending 30 June → due 1 April).
 */
export function addMonthsMonthEnd(iso: IsoDate, n: number): IsoDate {
  if (isLastDayOfMonth(iso)) {
    const { y, m } = parseDate(iso);
    const t = shiftMonth(y, m, n);
    return lastDayOfMonth(t.y, t.m);
  }
  return addMonths(iso, n);
}

export function addDays(iso: IsoDate, n: number): IsoDate {
  const { y, m, d } = parseDate(iso);
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return formatYmd({ y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() });
}

export function daysBetween(a: IsoDate, b: IsoDate): number {
  const pa = parseDate(a);
  const pb = parseDate(b);
  return Math.round((Date.UTC(pb.y, pb.m - 1, pb.d) - Date.UTC(pa.y, pa.m - 1, pa.d)) / 86_400_000);
}

export const maxDate = (a: IsoDate, b: IsoDate): IsoDate => (a >= b ? a : b);
export const minDate = (a: IsoDate, b: IsoDate): IsoDate => (a <= b ? a : b);

/** A day of a month clamped to the month's length (payday 31 → 30 June, 28/29 February). */
export function dayInMonth(y: number, m: number, day: number): IsoDate {
  return formatYmd({ y, m, d: Math.min(day, daysInMonth(y, m)) });
}

const londonDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today's date in London (the practice's calendar). */
export function londonToday(now: Date = new Date()): IsoDate {
  return londonDay.format(now);
}

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 31 Dec 2026 (en-GB), for periods and task titles written on the server. */
export function enGb(iso: IsoDate): string {
  const { y, m, d } = parseDate(iso);
  return `${String(d).padStart(2, '0')} ${SHORT_MONTHS[m - 1]} ${y}`;
}
