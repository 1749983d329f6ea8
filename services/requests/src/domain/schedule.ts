import type { ReminderSchedule } from '@countinghouse/proto';
import { addDays } from '@countinghouse/proto';

/**
 * The days a request is chased on (London dates), up to `until`: the day it was sent, each of the
 * schedule's days before the due date that falls after sending, then every `overdue_every_days` after
 * the due date. The due date itself is not one (issue 28: 14, 7, 3, 1 before, then every 3 overdue).
 */
export function scheduledDays(sentOn: string, dueOn: string, schedule: ReminderSchedule, until: string): string[] {
  const days = new Set<string>([sentOn]);
  for (const d of schedule.before_days) {
    const day = addDays(dueOn, -d);
    if (day > sentOn) days.add(day);
  }
  for (let k = 1; ; k++) {
    const day = addDays(dueOn, k * schedule.overdue_every_days);
    if (day > until) break;
    if (day > sentOn) days.add(day);
  }
  return [...days].filter((d) => d <= until).sort();
}

/**
 * Whether today's run sends a reminder: the latest scheduled day reached is not yet covered by one sent
 * on or after it. A run that missed days sends one e-mail, not one per missed day; a reminder sent by
 * hand covers the schedule until the next scheduled day; and the caller's (request, day) key means
 * never two in a day. Completed or cancelled requests and requests with no open item are never chased
 * (the caller selects only those).
 */
export function reminderDue(p: {
  today: string;
  sentOn: string;
  dueOn: string;
  schedule: ReminderSchedule;
  sentDays: readonly string[];
}): boolean {
  const reached = scheduledDays(p.sentOn, p.dueOn, p.schedule, p.today);
  const latest = reached[reached.length - 1];
  if (latest === undefined) return false;
  return !p.sentDays.some((s) => s >= latest);
}
