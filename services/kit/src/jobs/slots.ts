import { CronExpressionParser } from 'cron-parser';

/**
 * Schedules run in the practice's time: UK civil time, GMT in winter and BST in summer (clocks go
 * forward at 01:00 GMT on the last Sunday of March and back at 02:00 BST on the last Sunday of
 * October, the Summer Time Act 1972 as amended by SI 2002/262). A daily slot inside the hour that does
 * not exist in March runs once, an hour later; inside the hour that happens twice in October, once.
 */
export const SCHEDULE_TIME_ZONE = 'Europe/London';

/** At most this many missed slots are enqueued on one pass of a catch-up schedule (a month of dailies). */
export const MAX_CATCH_UP_SLOTS = 31;

export function assertCron(cron: string): void {
  // Five fields only: minute hour day-of-month month day-of-week (no seconds: a slot is a minute).
  if (cron.trim().split(/\s+/).length !== 5) throw new Error(`A schedule's cron needs five fields: "${cron}"`);
  CronExpressionParser.parse(cron, { tz: SCHEDULE_TIME_ZONE });
}

/** The newest slot at or before `now`. */
export function previousSlot(cron: string, now: Date): Date {
  // currentDate is exclusive for prev(); a slot exactly at `now` counts as due.
  const it = CronExpressionParser.parse(cron, { currentDate: new Date(now.getTime() + 1), tz: SCHEDULE_TIME_ZONE });
  return it.prev().toDate();
}

/** The first slot strictly after `after`. */
export function nextSlot(cron: string, after: Date): Date {
  return CronExpressionParser.parse(cron, { currentDate: after, tz: SCHEDULE_TIME_ZONE }).next().toDate();
}

/**
 * The slots to run now, oldest first, given the newest slot already run: none when nothing is due;
 * only the newest due slot when the schedule does not catch up (a run missed while the product was
 * down runs once on return); every missed slot, up to MAX_CATCH_UP_SLOTS newest, when it does.
 */
export function dueSlots(o: { cron: string; lastSlot: Date; now: Date; catchUp: boolean }): Date[] {
  const newest = previousSlot(o.cron, o.now);
  if (newest.getTime() <= o.lastSlot.getTime()) return [];
  if (!o.catchUp) return [newest];
  const slots: Date[] = [];
  const it = CronExpressionParser.parse(o.cron, { currentDate: o.lastSlot, endDate: newest, tz: SCHEDULE_TIME_ZONE });
  while (it.hasNext()) {
    const s = it.next().toDate();
    if (s.getTime() > newest.getTime()) break;
    slots.push(s);
    if (slots.length > MAX_CATCH_UP_SLOTS) slots.shift();
  }
  return slots;
}
