import { AML_OUTSTANDING_STATUSES, type AmlStatus, type VersionState } from '@countinghouse/proto';
import type { IsoDate } from './dates.js';
import { reviewDueFrom } from './review.js';

export interface FileFacts {
  /** The latest version's state. */
  latestState: VersionState;
  /** The next review of the last approved version (null when none was ever approved). */
  approvedNextReviewOn: IsoDate | null;
  /** Whether anyone has worked on the file yet (a Companies House prefill does not count). */
  started: boolean;
}

/**
 * A client's due diligence status. An approved version stays in force while a later version is drafted,
 * until its review date: review due from AML_REVIEW_LEAD_DAYS before it, expired after it. Without an
 * approved version: awaiting approval, in progress, or not started.
 */
export function amlStatus(f: FileFacts, today: IsoDate): AmlStatus {
  if (f.approvedNextReviewOn) {
    if (today > f.approvedNextReviewOn) return f.latestState === 'awaiting_approval' ? 'awaiting_approval' : 'expired';
    if (today >= reviewDueFrom(f.approvedNextReviewOn)) return 'review_due';
    return 'approved';
  }
  if (f.latestState === 'awaiting_approval') return 'awaiting_approval';
  return f.started ? 'in_progress' : 'not_started';
}

export const isOutstanding = (s: AmlStatus) => AML_OUTSTANDING_STATUSES.includes(s);
