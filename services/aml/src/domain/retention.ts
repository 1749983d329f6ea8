import { addYearsForward, enGb, type IsoDate } from './dates.js';

/**
 * MLR 2017 reg. 40(3)-(4): records of customer due diligence are kept for five years beginning with the
 * date on which the business relationship ends (here: the day the client was cancelled). The period
 * beginning 1 Jan 2025 ends with 31 Dec 2029, so the file may be deleted from 1 Jan 2030, the fifth
 * anniversary; a relationship ending on 29 Feb is kept until 28 Feb five years on and deletable from 1 Mar.
 * (reg. 40(5) allows longer keeping; nothing here deletes on its own.)
 */
export const RETENTION_YEARS = 5;

export function deletableFrom(relationshipEndedOn: IsoDate): IsoDate {
  return addYearsForward(relationshipEndedOn, RETENTION_YEARS);
}

export type RetentionVerdict =
  { deletable: true; keepUntil: IsoDate } | { deletable: false; keepUntil: IsoDate | null; reason: 'not_ended' | 'running' };

/** May the file be deleted today? keepUntil is the last day it must still be kept. */
export function retentionVerdict(relationshipEndedOn: IsoDate | null, today: IsoDate): RetentionVerdict {
  if (!relationshipEndedOn) return { deletable: false, keepUntil: null, reason: 'not_ended' };
  const from = deletableFrom(relationshipEndedOn);
  const [y = NaN, m = NaN, d = NaN] = from.split('-').map(Number);
  const keepUntil = new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
  return today >= from ? { deletable: true, keepUntil } : { deletable: false, keepUntil, reason: 'running' };
}

export const keepUntilLabel = (d: IsoDate) => enGb(d);
