// iCalendar (RFC 5545) for a member of staff's deadlines: one all-day VEVENT per deadline.
import { deadlineKindLabel, type Deadline } from '@countinghouse/proto';
import { addDays } from './dates.js';

/** RFC 5545 s.3.3.11: backslash, semicolon, comma and newlines are escaped in TEXT values. */
export function escapeText(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** RFC 5545 s.3.1: lines longer than 75 octets are folded (CRLF followed by a space). */
export function foldLine(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // Never split a UTF-8 sequence: back off to a lead byte.
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
    parts.push(bytes.subarray(start, end).toString('utf8'));
    start = end;
    limit = 74; // continuation lines start with a space
  }
  return parts.join('\r\n ');
}

const compact = (iso: string) => iso.replace(/-/g, '');

export function buildCalendar(opts: { name: string; deadlines: Deadline[]; now: Date; baseUrl: string }): string {
  const stamp = opts.now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Countinghouse//Deadlines//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(opts.name)}`,
    'X-WR-TIMEZONE:Europe/London',
  ];
  for (const d of opts.deadlines) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${d.id}@countinghouse`,
      `DTSTAMP:${stamp}`,
      `DTSTART;VALUE=DATE:${compact(d.due_on)}`,
      `DTEND;VALUE=DATE:${compact(addDays(d.due_on, 1))}`,
      `SUMMARY:${escapeText(`${d.client_name}: ${deadlineKindLabel(d.kind)}`)}`,
      `DESCRIPTION:${escapeText(`${deadlineKindLabel(d.kind)} for ${d.client_name}, ${d.period}.`)}`,
      `URL:${opts.baseUrl}/admin/deadlines?client_id=${encodeURIComponent(d.client_id)}`,
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
