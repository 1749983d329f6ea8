import { DUE_SOON_DAYS, type DeadlineStatus } from '@countinghouse/proto';
import { addDays, type IsoDate } from './dates.js';

/** Done when marked; overdue once the due date has passed; due soon within DUE_SOON_DAYS (today included). */
export function deadlineStatus(dueOn: IsoDate, doneAt: Date | string | null, today: IsoDate): DeadlineStatus {
  if (doneAt) return 'done';
  if (dueOn < today) return 'overdue';
  if (dueOn <= addDays(today, DUE_SOON_DAYS)) return 'due_soon';
  return 'upcoming';
}

/** How far back and ahead deadlines are kept current: recent ones stay visible as overdue, a year and more ahead is planned. */
export const LOOKBACK_DAYS = 31;
export const HORIZON_DAYS = 430;

export function engineWindow(today: IsoDate): { from: IsoDate; to: IsoDate } {
  return { from: addDays(today, -LOOKBACK_DAYS), to: addDays(today, HORIZON_DAYS) };
}
