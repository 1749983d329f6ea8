// en-GB and GBP formatting, shared by the frontend and server-rendered text.

const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const shortMonth = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric', timeZone: 'Europe/London' });
const dateTime = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});

/** £1,234.50 */
export function formatGBP(amount: number | string | null | undefined): string {
  const n = typeof amount === 'string' ? Number(amount) : (amount ?? 0);
  return gbp.format(Number.isFinite(n) ? n : 0);
}

/** 05 Mar 2026 (the spec's dd Mon yyyy). Sept is shortened to Sep. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return shortMonth.format(d).replace('Sept', 'Sep');
}

/** 05 Mar 2026, 14:30 */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return dateTime.format(d).replace('Sept', 'Sep');
}
