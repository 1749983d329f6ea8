export type IsoDate = string;

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const parts = (d: IsoDate): [number, number, number] => {
  const [y = NaN, m = NaN, day = NaN] = d.split('-').map(Number);
  return [y, m, day];
};

/** Today in London (YYYY-MM-DD). */
export function londonToday(now = new Date()): IsoDate {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export function addDays(d: IsoDate, n: number): IsoDate {
  const [y, m, day] = parts(d);
  return new Date(Date.UTC(y, m - 1, day + n)).toISOString().slice(0, 10);
}

/**
 * The same day `years` later; 29 February falls back to 28 February (a review is never later than the
 * anniversary).
 */
export function addYearsBack(d: IsoDate, years: number): IsoDate {
  const [y, m, day] = parts(d);
  return iso(y + years, m, Math.min(day, daysIn(y + years, m)));
}

/** The same day `years` later; 29 February moves on to 1 March (a keeping period never ends early). */
export function addYearsForward(d: IsoDate, years: number): IsoDate {
  const [y, m, day] = parts(d);
  return day > daysIn(y + years, m) ? iso(y + years, m + 1, 1) : iso(y + years, m, day);
}

/** 31 Dec 2026. */
export function enGb(d: IsoDate): string {
  const [y, m, day] = parts(d);
  return new Date(Date.UTC(y, m - 1, day)).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
