// CSV export of the report tables: RFC 4180 (CRLF, fields with a comma, quote or line break quoted,
// quotes doubled), a UTF-8 byte order mark so Excel reads '£' and accents, en-GB dates, pounds with
// two decimals and no symbol (so a spreadsheet sums them).

export type CsvCell = string | number | null | undefined;

/** A text cell that a spreadsheet would run as a formula is prefixed with an apostrophe (CSV injection). */
function neutralise(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? String(value) : neutralise(value);
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** 1234.5 → '1234.50' */
export const csvPounds = (n: number): string => n.toFixed(2);

/** '2026-03-05' or an ISO instant → '05/03/2026' (London). */
export function csvDate(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value.slice(8, 10)}/${value.slice(5, 7)}/${value.slice(0, 4)}`;
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', day: '2-digit', month: '2-digit', year: 'numeric' }).format(
    new Date(value),
  );
}

/** A share 0…1 as a percentage with one decimal: 0.6667 → '66.7'. */
export const csvPercent = (ratio: number): string => (ratio * 100).toFixed(1);

/** countinghouse-<name>-<from>-to-<to>.csv */
export const csvFilename = (name: string, range: { from: string; to: string }) => `countinghouse-${name}-${range.from}-to-${range.to}.csv`;

/** Hands the text to the browser as a file download. */
export function downloadCsv(filename: string, csv: string) {
  const blob = new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
