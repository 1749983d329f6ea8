/**
 * Making Tax Digital for Income Tax: who is in scope, the quarterly periods and their due dates, and
 * how long an authorisation request stays open. Pure; dates are calendar dates (YYYY-MM-DD, UK).
 *
 * Rules (cited):
 * - Who must join, by qualifying income (self-employment plus property gross income) of a tax year:
 *   over £50,000 in 2024-25 -> from 6 April 2026; over £30,000 in 2025-26 -> from 6 April 2027; over
 *   £20,000 in 2026-27 -> from 6 April 2028. GOV.UK "Find out if and when you need to use Making Tax
 *   Digital for Income Tax" (updated 2025), The Income Tax (Digital Requirements) Regulations 2021
 *   (SI 2021/1076) as amended, and the Spring Statement 2025 for the £20,000 step. "Over" is strictly
 *   more than the threshold.
 * - Quarterly update deadlines: 7 August, 7 November, 7 February and 7 May for the standard quarters
 *   ending 5 July, 5 October, 5 January and 5 April (SI 2021/1076 reg. 7 and Schedule A1; GOV.UK
 *   "Use Making Tax Digital for Income Tax: send quarterly updates"). Updates are cumulative: each
 *   covers 6 April to the quarter's end (Self Employment Business API 5.0, cumulative period summary).
 * - Final declaration: 31 January after the tax year's end (TMA 1970 s.8 filing date, unchanged by MTD).
 * - An agent authorisation request "will expire after 21 days" (Agent Authorisation API 2.0,
 *   POST /agents/{arn}/invitations).
 * - The ledger's basis: from 2024-25 the cash basis is the default for the self-employed, accruals by
 *   election (ITTOIA 2005 s.25A as amended by Finance Act 2024 Sch. 1; GOV.UK "Cash basis"), so the
 *   profit and loss report is read on the cash basis unless the practice asks for accruals.
 */
import { MTD_EXPENSE_CATEGORIES, type MtdExpenseCategory, type MtdLedgerCategory } from '@countinghouse/proto';

export type MandateStep = 'now' | 'april_2027' | 'april_2028';

export const MANDATE_STEPS: ReadonlyArray<{ step: MandateStep; basisYear: string; thresholdPence: number; from: string }> = [
  { step: 'now', basisYear: '2024-25', thresholdPence: 50_000_00, from: '2026-04-06' },
  { step: 'april_2027', basisYear: '2025-26', thresholdPence: 30_000_00, from: '2027-04-06' },
  { step: 'april_2028', basisYear: '2026-27', thresholdPence: 20_000_00, from: '2028-04-06' },
];

export interface ScopeResult {
  mandatedFrom: MandateStep | null;
  mandatedFromDate: string | null;
  letter: string | null;
  exemptionReason: string | null;
  reason: string;
}

const pounds = (pence: number) =>
  `£${(pence / 100).toLocaleString('en-GB', { minimumFractionDigits: pence % 100 ? 2 : 0, maximumFractionDigits: 2 })}`;
const longDate = (iso: string) =>
  new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** When a client must join MTD for Income Tax, from their qualifying income per tax year (pence). */
export function mtdScope(incomePence: Readonly<Record<string, number>>, exemptionReason: string | null = null): ScopeResult {
  if (exemptionReason) {
    return { mandatedFrom: null, mandatedFromDate: null, letter: null, exemptionReason, reason: `Exempt: ${exemptionReason}` };
  }
  for (const s of MANDATE_STEPS) {
    const income = incomePence[s.basisYear];
    if (income !== undefined && income > s.thresholdPence) {
      const from = longDate(s.from);
      return {
        mandatedFrom: s.step,
        mandatedFromDate: s.from,
        exemptionReason: null,
        reason: `Qualifying income ${pounds(income)} in ${s.basisYear} is over ${pounds(s.thresholdPence)}`,
        letter:
          `Your qualifying income for ${s.basisYear} was ${pounds(income)}, over the ${pounds(s.thresholdPence)} threshold, ` +
          `so you must use Making Tax Digital for Income Tax from ${from}: digital records and a quarterly update to HMRC ` +
          `by 7 August, 7 November, 7 February and 7 May. We will send them for you once you authorise us with HMRC.`,
      };
    }
  }
  const known = MANDATE_STEPS.filter((s) => incomePence[s.basisYear] !== undefined).map((s) => s.basisYear);
  return {
    mandatedFrom: null,
    mandatedFromDate: null,
    letter: null,
    exemptionReason: null,
    reason: known.length
      ? `Qualifying income under the threshold in ${known.join(', ')}`
      : 'No qualifying income recorded for 2024-25 to 2026-27',
  };
}

// --- dates ---------------------------------------------------------------------------------------

function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The calendar date in London of an instant. */
export function londonDate(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** "2026-27" for any date from 6 April 2026 to 5 April 2027. */
export function taxYearOf(iso: string): string {
  const y = Number(iso.slice(0, 4));
  const start = iso.slice(5) >= '04-06' ? y : y - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

export function taxYearStart(taxYear: string): string {
  return `${taxYear.slice(0, 4)}-04-06`;
}

/** The last day of a tax year ("2025-26" -> 2026-04-05): a final declaration comes after it. */
export function taxYearEnd(taxYear: string): string {
  return `${Number(taxYear.slice(0, 4)) + 1}-04-05`;
}

export interface QuarterlyPeriod {
  quarter: 1 | 2 | 3 | 4;
  /** Cumulative: always 6 April of the tax year. */
  periodStartDate: string;
  quarterStartDate: string;
  periodEndDate: string;
  dueDate: string;
}

/** The four standard quarterly periods of a tax year and their due dates. */
export function quarterlyPeriods(taxYear: string): QuarterlyPeriod[] {
  const y = Number(taxYear.slice(0, 4));
  const start = `${y}-04-06`;
  return [
    { quarter: 1, periodStartDate: start, quarterStartDate: start, periodEndDate: `${y}-07-05`, dueDate: `${y}-08-07` },
    { quarter: 2, periodStartDate: start, quarterStartDate: `${y}-07-06`, periodEndDate: `${y}-10-05`, dueDate: `${y}-11-07` },
    { quarter: 3, periodStartDate: start, quarterStartDate: `${y}-10-06`, periodEndDate: `${y + 1}-01-05`, dueDate: `${y + 1}-02-07` },
    { quarter: 4, periodStartDate: start, quarterStartDate: `${y + 1}-01-06`, periodEndDate: `${y + 1}-04-05`, dueDate: `${y + 1}-05-07` },
  ];
}

/** The final declaration's due date: 31 January after the tax year. */
export function finalDeclarationDue(taxYear: string): string {
  return `${Number(taxYear.slice(0, 4)) + 2}-01-31`;
}

/** A label like "Q1 2026-27" for an obligation's period, by the standard quarter its end falls in. */
export function quarterLabel(periodEndDate: string): string {
  const ty = taxYearOf(periodEndDate);
  const q = quarterlyPeriods(ty).find((p) => periodEndDate >= p.quarterStartDate && periodEndDate <= p.periodEndDate);
  return q ? `Q${q.quarter} ${ty}` : ty;
}

export const AUTHORISATION_DAYS = 21;

/** The date an authorisation request made at `at` expires (21 days on, London calendar). */
export function authorisationExpiry(at: Date): string {
  return addDays(londonDate(at), AUTHORISATION_DAYS);
}

/** An open obligation is overdue once its due date has passed (due on the day itself is not yet overdue). */
export function isOverdue(o: { status: string; dueDate: string }, today: string): boolean {
  return o.status !== 'fulfilled' && o.dueDate < today;
}

/** HMRC's tax year format in paths (2026-27) must name consecutive years. */
export function isTaxYear(v: string): boolean {
  return /^20\d{2}-\d{2}$/.test(v) && (Number(v.slice(0, 4)) + 1) % 100 === Number(v.slice(5));
}

/**
 * A ledger account's category until the practice maps it: income to turnover, an expense to other
 * expenses (HMRC's catch-all), so the figures are complete at once and the review shows what was guessed.
 */
export function suggestedCategory(kind: 'income' | 'expense'): MtdLedgerCategory {
  return kind === 'income' ? 'turnover' : 'otherExpenses';
}

/**
 * The cumulative update's figures from the mapped ledger accounts: each category's total, to the penny
 * (sums in pence, so 0.1 + 0.2 is 0.30). Excluded accounts count nowhere; an expense category with
 * nothing in it is left out (the review sends it as zero, as HMRC's note asks).
 */
export function ledgerFigures(accounts: ReadonlyArray<{ amount: number; category: MtdLedgerCategory }>) {
  const pence = new Map<MtdLedgerCategory, number>();
  for (const a of accounts) {
    if (a.category === 'exclude') continue;
    pence.set(a.category, (pence.get(a.category) ?? 0) + Math.round(a.amount * 100));
  }
  const pounds = (c: MtdLedgerCategory) => (pence.get(c) ?? 0) / 100;
  const expenses: Partial<Record<MtdExpenseCategory, number>> = {};
  for (const c of MTD_EXPENSE_CATEGORIES) if (pence.get(c)) expenses[c] = pounds(c);
  return { turnover: pounds('turnover'), other: pounds('other'), expenses };
}

/**
 * The ledger period of a cumulative update: 6 April of the tax year to the period's end, which must fall
 * inside that tax year. Null when it does not.
 */
export function ledgerPeriod(taxYear: string, periodEndDate: string): { from: string; to: string } | null {
  if (!isTaxYear(taxYear) || taxYearOf(periodEndDate) !== taxYear) return null;
  return { from: taxYearStart(taxYear), to: periodEndDate };
}
