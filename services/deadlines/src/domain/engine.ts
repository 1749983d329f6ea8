// The deadline engine: every statutory date for one client, from its tax profile and (when linked)
// Companies House's answer. Pure: same input, same dates. Each rule cites its source.
import { MTD_ITSA_THRESHOLDS, type DeadlineKind, type SaTaxpayer, type TaxProfileInput } from '@countinghouse/proto';
import {
  addDays,
  addMonths,
  addMonthsMonthEnd,
  dayInMonth,
  daysInMonth,
  enGb,
  lastDayOfMonth,
  maxDate,
  parseDate,
  shiftMonth,
  type IsoDate,
} from './dates.js';
import { identityStatus, type IdvPerson, type PracticeVerification } from './identity-verification.js';
import { mtdYears, type MtdObligationFact, type MtdYear } from './mtd-obligations.js';

/** What the engine needs from Companies House (the cached company profile). */
export interface CompanyFacts {
  status: string;
  /** Companies House's company type (ltd, llp, plc, ...). */
  type?: string;
  incorporatedOn: IsoDate | null;
  ard: { day: number; month: number } | null;
  nextAccountsPeriodEnd: IsoDate | null;
  nextAccountsDueOn: IsoDate | null;
  lastAccountsMadeUpTo: IsoDate | null;
  confirmationNextDue: IsoDate | null;
  confirmationNextMadeUpTo: IsoDate | null;
}

export interface EngineInput {
  profile: TaxProfileInput;
  /** The client's business type (crm's directory): an LLP files accounts but pays no Corporation Tax. */
  businessType?: string | null;
  company: CompanyFacts | null;
  /** Only deadlines due within [from, to] are produced. */
  from: IsoDate;
  to: IsoDate;
  /** Directors and PSCs to verify with Companies House (linked companies only), and the practice's own verifications by person key. */
  identity?: { people: IdvPerson[]; practice: ReadonlyMap<string, PracticeVerification> };
  /** HMRC's Making Tax Digital for Income Tax obligations of the client, when the practice has read them (issue 31). */
  mtdObligations?: readonly MtdObligationFact[];
}

export interface ComputedDeadline {
  /** Stable per client: the same obligation keeps its key when its date moves. */
  key: string;
  kind: DeadlineKind;
  period: string;
  periodEnd: IsoDate | null;
  dueOn: IsoDate;
  source: 'companies_house' | 'rule' | 'hmrc';
  /** HMRC has it (its obligation is fulfilled): the day it was received. The deadline is marked done. */
  fulfilledOn?: IsoDate | null;
}

/** Companies House statuses of a company that no longer exists: it raises no deadlines. */
const CLOSED_STATUSES = new Set(['dissolved', 'converted-closed', 'removed', 'closed']);

export function isCompanyClosed(status: string | null | undefined): boolean {
  return !!status && CLOSED_STATUSES.has(status);
}

export function computeDeadlines(input: EngineInput): ComputedDeadline[] {
  if (input.company && isCompanyClosed(input.company.status)) return [];
  const out: ComputedDeadline[] = [
    ...companyDeadlines(input),
    ...vatDeadlines(input),
    ...payeDeadlines(input),
    ...selfAssessment(input),
    ...identityDeadlines(input),
  ];
  // Companies House's next due dates are outstanding by definition (it moves them on when filed), so
  // they are kept however long ago they fell due; so is a verification nobody has done yet, and an
  // obligation HMRC still waits for.
  const outstanding = (d: ComputedDeadline) =>
    d.source === 'companies_house' || d.kind === 'identity_verification' || (d.source === 'hmrc' && !d.fulfilledOn);
  return out
    .filter((d) => (d.dueOn >= input.from || outstanding(d)) && d.dueOn <= input.to)
    .sort((a, b) => a.dueOn.localeCompare(b.dueOn) || a.key.localeCompare(b.key));
}

// ---------------------------------------------------------------- company: accounts, CT, confirmation

interface AccountsPeriod {
  start: IsoDate;
  end: IsoDate;
  /** The company's first accounting reference period (starts on incorporation). */
  isFirst: boolean;
  /** Accounts for it are already filed (Companies House's last accounts): only its CT deadlines remain. */
  accountsFiled: boolean;
}

/** The period end in a given year of an accounting reference date (29 Feb → 28 Feb in other years). */
function ardIn(year: number, ard: { day: number; month: number }): IsoDate {
  return dayInMonth(year, ard.month, ard.day);
}

/** Is start..end longer than 12 months? */
function longerThan12Months(start: IsoDate, end: IsoDate): boolean {
  return end > addDays(addMonths(start, 12), -1);
}

function companyArd(input: EngineInput): { day: number; month: number } | null {
  const { profile, company } = input;
  if (company?.ard) return company.ard;
  if (profile.ard_day !== null && profile.ard_month !== null) return { day: profile.ard_day, month: profile.ard_month };
  // Companies Act 2006 s.391(4): a company incorporated after 1 April 1996 has as its accounting
  // reference date the last day of the month in which the anniversary of its incorporation falls.
  const inc = company?.incorporatedOn ?? profile.incorporation_date;
  if (inc) {
    const { y, m } = parseDate(inc);
    return { day: daysInMonth(y, m), month: m };
  }
  return null;
}

/**
 * The first accounting reference period (s.391(5)): begins on incorporation, ends on the accounting
 * reference date, more than 6 and at most 18 months long.
 */
export function firstPeriodEnd(incorporatedOn: IsoDate, ard: { day: number; month: number }): IsoDate {
  const { y } = parseDate(incorporatedOn);
  const minEnd = addMonths(incorporatedOn, 6);
  for (let year = y; year <= y + 2; year++) {
    const candidate = ardIn(year, ard);
    if (candidate > minEnd) return candidate;
  }
  return ardIn(y + 1, ard);
}

function accountsPeriods(input: EngineInput): AccountsPeriod[] {
  const { profile, company } = input;
  const ard = companyArd(input);
  const inc = company?.incorporatedOn ?? profile.incorporation_date;
  const lastMadeUp = company ? company.lastAccountsMadeUpTo : profile.last_accounts_made_up_to;
  let nextEnd: IsoDate | null = company?.nextAccountsPeriodEnd ?? null;
  if (!nextEnd && ard) {
    if (lastMadeUp) {
      const { y } = parseDate(lastMadeUp);
      nextEnd = ardIn(y, ard) > lastMadeUp ? ardIn(y, ard) : ardIn(y + 1, ard);
    } else if (inc) {
      nextEnd = firstPeriodEnd(inc, ard);
    } else {
      // Neither linked nor dated: the latest period end whose deadlines may still be ahead.
      const { y } = parseDate(input.from);
      nextEnd = ardIn(y - 1, ard);
    }
  }
  if (!nextEnd) return [];
  const periods: AccountsPeriod[] = [];
  const periodStart = (end: IsoDate, previousEnd: IsoDate | null): { start: IsoDate; isFirst: boolean } => {
    if (previousEnd) return { start: addDays(previousEnd, 1), isFirst: false };
    if (inc && (!lastMadeUp || lastMadeUp < inc) && end > inc && end <= addMonths(inc, 18)) return { start: inc, isFirst: true };
    return { start: addDays(addMonthsMonthEnd(end, -12), 1), isFirst: false };
  };
  // The period whose accounts were filed last still has Corporation Tax deadlines ahead of it.
  if (lastMadeUp && lastMadeUp < nextEnd) {
    const s = periodStart(lastMadeUp, null);
    periods.push({ start: s.start, end: lastMadeUp, isFirst: s.isFirst, accountsFiled: true });
  }
  let prev: IsoDate | null = lastMadeUp && lastMadeUp < nextEnd ? lastMadeUp : null;
  let end = nextEnd;
  // Later periods: one a year on the accounting reference date, until their first deadline is past `to`.
  for (let i = 0; i < 6 && addMonthsMonthEnd(end, -12) <= input.to; i++) {
    const s = periodStart(end, prev);
    periods.push({ start: s.start, end, isFirst: s.isFirst, accountsFiled: false });
    prev = end;
    const { y } = parseDate(end);
    end = ard ? ardIn(y + 1, ard) : addMonthsMonthEnd(end, 12);
  }
  return periods;
}

/**
 * Accounts filing deadline by rule, Companies Act 2006 s.442: 9 months after the end of the
 * accounting reference period for a private company, 6 for a public one (s.442(2)); for a first
 * period longer than 12 months, 21 (private) or 18 (public) months after incorporation, or 3 months
 * after the period end if that is later (s.442(3)). Months counted under s.443 (addMonthsMonthEnd).
 */
export function accountsDueByRule(period: { start: IsoDate; end: IsoDate; isFirst: boolean }, companyType: 'private' | 'public'): IsoDate {
  const months = companyType === 'public' ? 6 : 9;
  if (period.isFirst && longerThan12Months(period.start, period.end)) {
    return maxDate(addMonthsMonthEnd(period.start, 12 + months), addMonthsMonthEnd(period.end, 3));
  }
  return addMonthsMonthEnd(period.end, months);
}

/**
 * Corporation Tax accounting periods within a period of account: an accounting period ends 12 months
 * after it begins (CTA 2009 s.10(1)(a)), so a long period of account is split into a first 12 months
 * and the rest.
 */
export function ctAccountingPeriods(start: IsoDate, end: IsoDate): Array<{ start: IsoDate; end: IsoDate }> {
  const out: Array<{ start: IsoDate; end: IsoDate }> = [];
  let s = start;
  while (longerThan12Months(s, end)) {
    const e = addDays(addMonths(s, 12), -1);
    out.push({ start: s, end: e });
    s = addDays(e, 1);
  }
  out.push({ start: s, end });
  return out;
}

/** Corporation Tax payment: 9 months and 1 day after the end of the accounting period (TMA 1970 s.59D; HMRC CTM92010). */
export function ctPaymentDue(apEnd: IsoDate): IsoDate {
  return addDays(addMonthsMonthEnd(apEnd, 9), 1);
}

/**
 * CT600 filing date (FA 1998 Sch 18 para 14(1)): 12 months after the end of the period of account
 * (for every accounting period in it) when that is at most 18 months long; else 30 months from its start.
 */
export function ct600Due(periodOfAccount: { start: IsoDate; end: IsoDate }): IsoDate {
  if (periodOfAccount.end > addDays(addMonths(periodOfAccount.start, 18), -1)) return addMonthsMonthEnd(periodOfAccount.start, 30);
  return addMonthsMonthEnd(periodOfAccount.end, 12);
}

/** Confirmation statement: within 14 days after the end of the review period (Companies Act 2006 s.853A(1)). */
export function confirmationDue(reviewDate: IsoDate): IsoDate {
  return addDays(reviewDate, 14);
}

function hasCompany(input: EngineInput): boolean {
  const p = input.profile;
  return !!(input.company || (p.company_number && p.company_number.trim()) || p.ard_day !== null || p.incorporation_date);
}

/**
 * A limited liability partnership: its accounts and confirmation statements follow the Companies Act as
 * applied to LLPs (SI 2008/1911, SI 2009/1804), but it is transparent for tax (ITTOIA 2005 s.863, CTA 2009
 * s.1273): no Corporation Tax; its members are taxed on their shares through Self Assessment (decision 664).
 */
export function isLlp(input: Pick<EngineInput, 'businessType' | 'company'>): boolean {
  return input.businessType === 'llp' || input.company?.type === 'llp';
}

function companyDeadlines(input: EngineInput): ComputedDeadline[] {
  if (!hasCompany(input)) return [];
  const { company, profile } = input;
  const corporationTax = !isLlp(input);
  const out: ComputedDeadline[] = [];
  for (const period of accountsPeriods(input)) {
    const label = `Year ended ${enGb(period.end)}`;
    if (!period.accountsFiled) {
      const fromCh = company?.nextAccountsPeriodEnd === period.end && company.nextAccountsDueOn;
      out.push({
        key: `accounts:${period.end}`,
        kind: 'accounts',
        period: label,
        periodEnd: period.end,
        dueOn: fromCh ? company!.nextAccountsDueOn! : accountsDueByRule(period, profile.company_type),
        source: fromCh ? 'companies_house' : 'rule',
      });
    }
    if (!corporationTax) continue;
    const aps = ctAccountingPeriods(period.start, period.end);
    const ct600 = ct600Due(period);
    for (const ap of aps) {
      const apLabel = aps.length > 1 ? `Accounting period ${enGb(ap.start)} to ${enGb(ap.end)}` : label;
      out.push({
        key: `ct_payment:${ap.end}`,
        kind: 'ct_payment',
        period: apLabel,
        periodEnd: ap.end,
        dueOn: ctPaymentDue(ap.end),
        source: 'rule',
      });
      out.push({ key: `ct600:${ap.end}`, kind: 'ct600', period: apLabel, periodEnd: ap.end, dueOn: ct600, source: 'rule' });
    }
  }
  // Confirmation statements: Companies House's next due date, then one a year by rule (s.853A: the
  // next review period ends 12 months after the last review date).
  let review: IsoDate | null = null;
  if (company?.confirmationNextMadeUpTo) review = company.confirmationNextMadeUpTo;
  else if (company?.confirmationNextDue) review = addDays(company.confirmationNextDue, -14);
  else if (profile.confirmation_review_date) review = profile.confirmation_review_date;
  else {
    const inc = company?.incorporatedOn ?? profile.incorporation_date;
    // s.853A(3)(a): the first review period ends 12 months after incorporation.
    if (inc) review = addMonths(inc, 12);
  }
  if (review) {
    // A hand-entered review date rolls forward a year at a time to the first whose deadline may be in view.
    // Companies House's own next due date is always kept (outstanding until filed).
    const chDue = company?.confirmationNextDue ?? null;
    let k = 0;
    while (!chDue && k < 200 && confirmationDue(addMonths(review, 12 * k)) < input.from) k++;
    for (let i = 0; i < 3; i++) {
      const r = addMonths(review, 12 * (k + i));
      if (r > input.to) break;
      const fromCh = k + i === 0 && chDue;
      out.push({
        key: `confirmation_statement:${r}`,
        kind: 'confirmation_statement',
        period: `Review period to ${enGb(r)}`,
        periodEnd: r,
        dueOn: fromCh ? company!.confirmationNextDue! : confirmationDue(r),
        source: fromCh ? 'companies_house' : 'rule',
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------- identity verification (ECCTA 2023)

const IDV_KIND_TEXT = { director: 'director', psc: 'PSC', relevant_legal_entity: 'relevant legal entity' } as const;

/** One deadline per person not yet verified whose date is known (domain/identity-verification.ts has the rules). */
function identityDeadlines(input: EngineInput): ComputedDeadline[] {
  if (!input.identity || !input.company) return [];
  const company = {
    confirmationNextMadeUpTo: input.company.confirmationNextMadeUpTo,
    confirmationNextDue: input.company.confirmationNextDue,
  };
  const out: ComputedDeadline[] = [];
  for (const p of input.identity.people) {
    const s = identityStatus(p, company, input.from, input.identity.practice.get(p.key) ?? null);
    if (s.status !== 'due' && s.status !== 'overdue') continue;
    out.push({
      key: `identity_verification:${p.key}`,
      kind: 'identity_verification',
      period: `${p.name} (${IDV_KIND_TEXT[p.kind]})`,
      periodEnd: null,
      dueOn: s.dueOn,
      source: s.source,
    });
  }
  return out;
}

// ---------------------------------------------------------------- VAT

/** The months (1..12) VAT quarters end in, per stagger (HMRC VAT Notice 700/12). */
export const VAT_STAGGER_MONTHS: Record<'stagger_1' | 'stagger_2' | 'stagger_3', number[]> = {
  stagger_1: [3, 6, 9, 12],
  stagger_2: [1, 4, 7, 10],
  stagger_3: [2, 5, 8, 11],
};

/** VAT return and payment: 1 month and 7 days after the end of the period (VAT Regulations 1995 reg 25; VAT Notice 700/12 s.3). */
export function vatDue(periodEnd: IsoDate): IsoDate {
  return addDays(addMonthsMonthEnd(periodEnd, 1), 7);
}

/** Annual accounting scheme: the return and balancing payment 2 months after the period end (VAT Notice 732 s.3). */
export function vatAnnualDue(periodEnd: IsoDate): IsoDate {
  return addMonthsMonthEnd(periodEnd, 2);
}

function vatDeadlines(input: EngineInput): ComputedDeadline[] {
  const scheme = input.profile.vat_scheme;
  if (scheme === 'none') return [];
  const out: ComputedDeadline[] = [];
  const { y: fy, m: fm } = parseDate(input.from);
  // Period ends from 3 months before `from` (their deadlines may fall in the window) to `to`.
  for (let i = -3; i < 24; i++) {
    const { y, m } = shiftMonth(fy, fm, i);
    const end = lastDayOfMonth(y, m);
    if (scheme === 'annual') {
      if (m !== input.profile.vat_annual_end_month) continue;
      out.push({
        key: `vat_return:${end}`,
        kind: 'vat_return',
        period: `Year ended ${enGb(end)}`,
        periodEnd: end,
        dueOn: vatAnnualDue(end),
        source: 'rule',
      });
      continue;
    }
    if (scheme !== 'monthly' && !VAT_STAGGER_MONTHS[scheme].includes(m)) continue;
    const label = scheme === 'monthly' ? `Month ended ${enGb(end)}` : `Quarter ended ${enGb(end)}`;
    out.push({ key: `vat_return:${end}`, kind: 'vat_return', period: label, periodEnd: end, dueOn: vatDue(end), source: 'rule' });
  }
  return out;
}

// ---------------------------------------------------------------- PAYE

/** Tax year label: 2025-26 for the year 6 April 2025 to 5 April 2026. */
export function taxYearLabel(startYear: number): string {
  return `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`;
}

function payeDeadlines(input: EngineInput): ComputedDeadline[] {
  const p = input.profile;
  if (!p.paye_scheme || p.paye_payday === null) return [];
  const out: ComputedDeadline[] = [];
  const { y: fy, m: fm } = parseDate(input.from);
  for (let i = -1; i < 16; i++) {
    const { y, m } = shiftMonth(fy, fm, i);
    // RTI: the Full Payment Submission on or before each payday (Income Tax (PAYE) Regulations 2003 reg 67B).
    const payday = dayInMonth(y, m, p.paye_payday);
    out.push({
      key: `paye_fps:${payday}`,
      kind: 'paye_fps',
      period: `Payday ${enGb(payday)}`,
      periodEnd: payday,
      dueOn: payday,
      source: 'rule',
    });
    // The tax month ending on the 5th is paid by the 22nd when paid electronically (PAYE Regulations reg 69).
    const taxMonthEnd = dayInMonth(y, m, 5);
    out.push({
      key: `paye_payment:${taxMonthEnd}`,
      kind: 'paye_payment',
      period: `Tax month to ${enGb(taxMonthEnd)}`,
      periodEnd: taxMonthEnd,
      dueOn: dayInMonth(y, m, 22),
      source: 'rule',
    });
  }
  for (let year = parseDate(input.from).y - 1; year <= parseDate(input.to).y; year++) {
    const taxYearEnd = dayInMonth(year + 1, 4, 5);
    // P11D and P11D(b) by 6 July after the tax year (PAYE Regulations reg 85; SSCR 2001 reg 80);
    // Class 1A NICs paid by 22 July electronically (SSCR 2001 Sch 4 para 17).
    out.push({
      key: `p11d:${taxYearEnd}`,
      kind: 'p11d',
      period: taxYearLabel(year),
      periodEnd: taxYearEnd,
      dueOn: dayInMonth(year + 1, 7, 6),
      source: 'rule',
    });
    out.push({
      key: `class_1a_payment:${taxYearEnd}`,
      kind: 'class_1a_payment',
      period: taxYearLabel(year),
      periodEnd: taxYearEnd,
      dueOn: dayInMonth(year + 1, 7, 22),
      source: 'rule',
    });
  }
  return out;
}

// ---------------------------------------------------------------- Self Assessment and MTD for Income Tax

/**
 * Whether a sole trader or landlord is in Making Tax Digital for Income Tax for the tax year starting
 * 6 April `taxYearStart`: qualifying income above £50,000 from 2026, £30,000 from 2027, £20,000 from
 * 2028 (Income Tax (Digital Requirements) Regulations 2021, as amended; HMRC "Check if you need to use MTD for Income Tax").
 */
export function mtdInScope(taxpayer: Pick<SaTaxpayer, 'role' | 'qualifying_income'>, taxYearStart: number): boolean {
  if (taxpayer.role !== 'sole_trader' && taxpayer.role !== 'landlord') return false;
  if (taxpayer.qualifying_income === null) return false;
  let threshold: number | null = null;
  for (const t of MTD_ITSA_THRESHOLDS) if (taxYearStart >= t.fromTaxYear) threshold = t.above;
  return threshold !== null && taxpayer.qualifying_income > threshold;
}

/**
 * The taxpayer HMRC's MTD obligations belong to: the integrations service reads them for the client's one
 * National Insurance number, which is its sole trader's or landlord's (the first such taxpayer on the
 * profile; decision 600).
 */
export function mtdTaxpayerId(profile: Pick<TaxProfileInput, 'sa_taxpayers'>): string | null {
  const t = profile.sa_taxpayers.find((x) => x.role === 'sole_trader' || x.role === 'landlord');
  return t?.id ?? null;
}

function selfAssessment(input: EngineInput): ComputedDeadline[] {
  const hmrcFor = input.mtdObligations?.length ? mtdTaxpayerId(input.profile) : null;
  const years = hmrcFor ? mtdYears(input.mtdObligations!) : null;
  return input.profile.sa_taxpayers.flatMap((t) => selfAssessmentDeadlines(t, input, t.id === hmrcFor ? years : null));
}

function selfAssessmentDeadlines(t: SaTaxpayer, input: EngineInput, hmrc: ReadonlyMap<number, MtdYear> | null): ComputedDeadline[] {
  const out: ComputedDeadline[] = [];
  const who = t.name;
  const push = (
    kind: DeadlineKind,
    taxYear: number,
    dueOn: IsoDate,
    period: string,
    periodEnd: IsoDate,
    from: { source: 'rule' | 'hmrc'; fulfilledOn: IsoDate | null } = { source: 'rule', fulfilledOn: null },
  ) =>
    out.push({
      key: `${kind}:${periodEnd}:${t.id}`,
      kind,
      period: `${period} — ${who}`,
      periodEnd,
      dueOn,
      source: from.source,
      ...(from.fulfilledOn ? { fulfilledOn: from.fulfilledOn } : {}),
    });
  for (let year = parseDate(input.from).y - 3; year <= parseDate(input.to).y; year++) {
    const label = taxYearLabel(year);
    const yearEnd = dayInMonth(year + 1, 4, 5);
    const mtd = mtdInScope(t, year);
    const fromHmrc = hmrc?.get(year);
    // TMA 1970 s.8(1D): paper return by 31 October, online by 31 January after the tax year.
    if (fromHmrc) {
      // HMRC's own periods and dates for a year it has obligations for (the taxpayer is signed up,
      // whatever the profile's income says): its quarters, and its final declaration (else the rule's).
      for (const q of fromHmrc.quarters)
        push('mtd_quarterly_update', year, q.dueOn, `Quarter to ${enGb(q.periodEnd)}`, q.periodEnd, {
          source: 'hmrc',
          fulfilledOn: q.fulfilledOn,
        });
      const fd = fromHmrc.finalDeclaration;
      if (fd) push('mtd_final_declaration', year, fd.dueOn, label, yearEnd, { source: 'hmrc', fulfilledOn: fd.fulfilledOn });
      else push('mtd_final_declaration', year, dayInMonth(year + 2, 1, 31), label, yearEnd);
    } else if (mtd) {
      // MTD for Income Tax: the final declaration replaces the return, due 31 January after the tax year.
      push('mtd_final_declaration', year, dayInMonth(year + 2, 1, 31), label, yearEnd);
      // Quarterly updates for the standard quarters to 5 Jul, 5 Oct, 5 Jan, 5 Apr: due the 7th of the
      // second month after (7 Aug, 7 Nov, 7 Feb, 7 May).
      const quarters: Array<[IsoDate, IsoDate]> = [
        [dayInMonth(year, 7, 5), dayInMonth(year, 8, 7)],
        [dayInMonth(year, 10, 5), dayInMonth(year, 11, 7)],
        [dayInMonth(year + 1, 1, 5), dayInMonth(year + 1, 2, 7)],
        [dayInMonth(year + 1, 4, 5), dayInMonth(year + 1, 5, 7)],
      ];
      for (const [qEnd, due] of quarters) push('mtd_quarterly_update', year, due, `Quarter to ${enGb(qEnd)}`, qEnd);
    } else if (t.paper_return) {
      push('sa_paper_return', year, dayInMonth(year + 1, 10, 31), label, yearEnd);
    } else {
      push('sa_online_return', year, dayInMonth(year + 2, 1, 31), label, yearEnd);
    }
    // TMA 1970 s.59B: balancing payment 31 January after the tax year; s.59A: payments on account
    // on 31 January in the tax year and 31 July after it.
    push('sa_balancing_payment', year, dayInMonth(year + 2, 1, 31), label, yearEnd);
    push('sa_payment_on_account_1', year, dayInMonth(year + 1, 1, 31), label, yearEnd);
    push('sa_payment_on_account_2', year, dayInMonth(year + 1, 7, 31), label, yearEnd);
  }
  return out;
}
