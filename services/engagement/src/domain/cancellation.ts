import { CANCELLATION_DAYS, addDays, londonDate } from '@countinghouse/proto';

/**
 * Whether a client signs as a consumer. The Consumer Contracts (Information, Cancellation and
 * Additional Charges) Regulations 2013 give the 14-day right to cancel to consumers only; the practice
 * treats its individual clients (sole traders) as consumers, since their engagement covers their own
 * Self Assessment, and companies and partnerships as businesses (docs/decisions.md).
 */
export function isConsumer(businessType: string | null | undefined): boolean {
  return businessType === 'sole_trader';
}

/**
 * The last day a consumer may cancel: reg. 29(1) gives the right to cancel within the cancellation
 * period, which for a service contract ends 14 days after the day the contract is entered into (reg.
 * 30(3)(a)). The contract is entered into when the letter is signed, so signed on 1 Jan the period runs
 * to the end of 15 Jan. The day is the London day of signing.
 */
export function cancellationEndsOn(signedAt: Date): string {
  return addDays(londonDate(signedAt), CANCELLATION_DAYS);
}
