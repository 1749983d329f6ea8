import { ACSP_RETENTION_YEARS } from '@countinghouse/proto';
import { addDays, addYearsForward, type IsoDate } from './dates.js';

/**
 * An ACSP verification record is kept seven years after the verification (issue #30; the ACSP's own
 * record-keeping, beside MLR 2017 reg. 40's five years for the AML file): deletable from the seventh
 * anniversary (29 Feb moves on to 1 Mar, so the period never ends early), kept until the day before.
 */
export function acspDeletableFrom(verifiedOn: IsoDate): IsoDate {
  return addYearsForward(verifiedOn, ACSP_RETENTION_YEARS);
}

export function acspKeepUntil(verifiedOn: IsoDate): IsoDate {
  return addDays(acspDeletableFrom(verifiedOn), -1);
}

export function acspDeletable(verifiedOn: IsoDate, today: IsoDate): boolean {
  return today >= acspDeletableFrom(verifiedOn);
}
