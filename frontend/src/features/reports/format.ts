// en-GB labels of the report periods.

const monthFormat = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const dayMonth = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', timeZone: 'UTC' });

/** '2026-03' → 'Mar 2026' (en-GB writes September 'Sept'; the spec's dates say 'Sep'). */
export const monthLabel = (month: string) => monthFormat.format(new Date(`${month}-15T12:00:00Z`)).replace('Sept', 'Sep');

/** '2026-03-02' → '02 Mar' */
export const shortDay = (day: string) => dayMonth.format(new Date(`${day}T12:00:00Z`)).replace('Sept', 'Sep');

const monthShortFormat = new Intl.DateTimeFormat('en-GB', { month: 'short', year: '2-digit', timeZone: 'UTC' });
/** '2026-03' → 'Mar 26', under a chart's axis. */
export const monthAxisLabel = (month: string) => monthShortFormat.format(new Date(`${month}-15T12:00:00Z`)).replace('Sept', 'Sep');
