import { AML_REVIEW_LEAD_DAYS, type RiskLevel } from '@countinghouse/proto';
import { addDays, addYearsBack, type IsoDate } from './dates.js';
import { REVIEW_YEARS } from './risk.js';

/**
 * The next review of an approved file: 3 years for low risk, 2 for medium, 1 for high, from the day
 * of approval (reg. 27(8) ongoing monitoring; the intervals are the practice's policy). 29 February
 * approvals are reviewed on 28 February.
 */
export function nextReviewOn(approvedOn: IsoDate, level: RiskLevel): IsoDate {
  return addYearsBack(approvedOn, REVIEW_YEARS[level]);
}

/** The day the review reminder goes out (task and notification). */
export function reviewDueFrom(nextReview: IsoDate): IsoDate {
  return addDays(nextReview, -AML_REVIEW_LEAD_DAYS);
}
