import type { Deadline, DeadlineKind } from '@countinghouse/proto';

/**
 * What a client must do for each of their deadlines, and by when (issue 33, item 4; decision 641).
 * The practice files the returns; the client's part is to send the records early enough, or to pay
 * HMRC themselves. Returns: records a number of days before the statutory date, so the accountant has
 * time to prepare and the client to approve. Payments: the client pays HMRC by the due date itself
 * (the money must have reached HMRC by then: HMRC "Pay your tax bill").
 */
type Action = { text: string; leadDays: number };

const RECORDS = 'Send us your records';
const ACTIONS: Record<DeadlineKind, Action> = {
  // Companies Act 2006 s.442: accounts 9 months after the year end; CT600 12 months (FA 1998 Sch 18).
  accounts: { text: `${RECORDS} for the year (bank statements, sales and purchase invoices)`, leadDays: 60 },
  ct600: { text: `${RECORDS} for the year so we can prepare the Corporation Tax return`, leadDays: 60 },
  confirmation_statement: { text: 'Tell us of any change to your officers, shareholders or address', leadDays: 14 },
  identity_verification: { text: 'Verify your identity with Companies House (we can help)', leadDays: 14 },
  // VAT: one month and seven days after the quarter (VAT Regulations 1995 reg. 25, Notice 700/12).
  vat_return: { text: `${RECORDS} for the quarter, then pay the VAT due`, leadDays: 14 },
  // Self Assessment: 31 January online (TMA 1970 s.8), 31 October on paper.
  sa_online_return: { text: `${RECORDS} and income details for the tax year`, leadDays: 45 },
  sa_paper_return: { text: `${RECORDS} and income details for the tax year`, leadDays: 30 },
  mtd_quarterly_update: { text: `${RECORDS} of income and expenses for the quarter`, leadDays: 14 },
  mtd_final_declaration: { text: `${RECORDS} for the year and confirm your other income`, leadDays: 45 },
  // Payroll: the FPS on or before payday (RTI); payments and P11D dates the client keeps.
  paye_fps: { text: 'Tell us of new starters, leavers and pay changes before payday', leadDays: 3 },
  p11d: { text: 'Tell us of any benefits in kind (car, health cover, loans) for the year', leadDays: 30 },
  // Payments: the client pays HMRC; the money must reach HMRC by the due date.
  ct_payment: { text: 'Pay your Corporation Tax to HMRC', leadDays: 0 },
  sa_balancing_payment: { text: 'Pay the balance of your Self Assessment tax to HMRC', leadDays: 0 },
  sa_payment_on_account_1: { text: 'Make your first payment on account to HMRC', leadDays: 0 },
  sa_payment_on_account_2: { text: 'Make your second payment on account to HMRC', leadDays: 0 },
  paye_payment: { text: 'Pay your PAYE and National Insurance to HMRC', leadDays: 0 },
  class_1a_payment: { text: 'Pay your Class 1A National Insurance to HMRC', leadDays: 0 },
};

/** An ISO date `days` before `iso` (calendar days, UTC arithmetic on a plain date). */
function daysBefore(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

/**
 * The client's part of a deadline: what to do and the date to do it by. The "by" date is never before
 * today for a deadline still open (a late start is "as soon as you can", shown by `late`).
 */
export function clientActionOf(d: Pick<Deadline, 'kind' | 'due_on'>, today: string): { text: string; by: string; late: boolean } {
  const action = ACTIONS[d.kind] ?? { text: RECORDS, leadDays: 14 };
  const by = daysBefore(d.due_on, action.leadDays);
  return { text: action.text, by: by < today ? today : by, late: by < today };
}
