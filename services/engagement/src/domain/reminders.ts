import { REMINDER_DAYS, daysBetween } from '@countinghouse/proto';

/**
 * Which reminder is due today for a letter sent on `sentOn` (both London dates) and still unsigned,
 * given the reminders already sent: the latest day reached and not yet sent. One e-mail at most per
 * run, so a run that missed day 3 and catches up on day 8 sends the day-7 reminder only, never two
 * e-mails at once. Null when none is due.
 */
export function reminderDue(sentOn: string, today: string, alreadySent: readonly number[]): number | null {
  const age = daysBetween(sentOn, today);
  const reached = REMINDER_DAYS.filter((d) => age >= d);
  if (reached.length === 0) return null;
  const latest = reached[reached.length - 1]!;
  // A later reminder already sent covers the earlier ones.
  if (alreadySent.some((d) => d >= latest)) return null;
  return latest;
}
