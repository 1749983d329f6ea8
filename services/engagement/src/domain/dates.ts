// Date-times of the practice's letters (Europe/London and UTC); calendar days are proto's (calendar.ts).

const londonTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
  timeZoneName: 'short',
});

/** 24 Nov 2026, 10:15:03 GMT (or BST in summer). */
export function londonDateTime(at: Date): string {
  return londonTime.format(at).replace('Sept', 'Sep');
}

/** 2026-11-24 10:15:03 UTC */
export function utcDateTime(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
