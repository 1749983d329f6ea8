import { TaxProfileDefaults, type TaxProfileInput } from '@countinghouse/proto';
import { describe, expect, it } from 'vitest';
import { addMonthsMonthEnd, addMonths, isLeapYear } from '../src/domain/dates.js';
import {
  accountsDueByRule,
  computeDeadlines,
  confirmationDue,
  ct600Due,
  ctAccountingPeriods,
  ctPaymentDue,
  firstPeriodEnd,
  isLlp,
  mtdInScope,
  vatAnnualDue,
  vatDue,
  type CompanyFacts,
} from '../src/domain/engine.js';
import { deadlineStatus } from '../src/domain/status.js';
import { reconcile } from '../src/domain/reconcile.js';

const profile = (p: Partial<TaxProfileInput>): TaxProfileInput => ({ ...TaxProfileDefaults, ...p });

describe('months under Companies Act 2006 s.443', () => {
  it.each([
    ['2025-03-31', 9, '2025-12-31'], // month end → month end
    ['2025-06-30', 9, '2026-03-31'], // s.443(3): 30 June is a month end, so 31 March, not 30 March
    ['2024-02-29', 9, '2024-11-30'], // leap day is a month end
    ['2025-02-28', 9, '2025-11-30'], // 28 Feb in a common year is a month end too
    ['2025-08-31', 6, '2026-02-28'],
    ['2027-08-31', 6, '2028-02-29'], // into a leap February
    ['2025-05-15', 9, '2026-02-15'], // corresponding date
    ['2025-05-30', 9, '2026-02-28'], // s.443(4): the 30th into February → last day of February
    ['2024-02-29', 12, '2025-02-28'],
  ])('%s + %i months = %s', (from, n, expected) => {
    expect(addMonthsMonthEnd(from, n)).toBe(expected);
  });

  it('plain corresponding date falls back to the last day when the month is short', () => {
    expect(addMonths('2025-01-31', 1)).toBe('2025-02-28');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2025-01-30', 12)).toBe('2026-01-30');
  });

  it('leap years: every 4th, not every 100th, but every 400th', () => {
    expect([2024, 2025, 1900, 2000, 2100].map(isLeapYear)).toEqual([true, false, false, true, false]);
  });
});

describe('accounts filing (s.442)', () => {
  it.each([
    // [start, end, first, type, expected]
    ['2025-04-01', '2026-03-31', false, 'private', '2026-12-31'],
    ['2025-04-01', '2026-03-31', false, 'public', '2026-09-30'],
    ['2023-03-01', '2024-02-29', false, 'private', '2024-11-30'], // the brief's leap example
    ['2024-07-01', '2025-06-30', false, 'private', '2026-03-31'],
    // First period over 12 months: 21 months after incorporation (private), 18 (public) …
    ['2024-01-15', '2025-01-31', true, 'private', '2025-10-15'],
    ['2024-01-15', '2025-01-31', true, 'public', '2025-07-15'],
    // … or 3 months after the period end when later (a public company's 18-month first period)
    ['2024-01-15', '2025-07-14', true, 'public', '2025-10-14'],
    // First period of 12 months or less: the ordinary 9 months
    ['2024-06-10', '2025-06-09', true, 'private', '2026-03-09'],
  ] as const)('%s to %s (first %s, %s) → %s', (start, end, isFirst, type, expected) => {
    expect(accountsDueByRule({ start, end, isFirst }, type)).toBe(expected);
  });

  it('first accounting reference period ends on the ARD more than 6 months after incorporation (s.391)', () => {
    expect(firstPeriodEnd('2024-01-15', { day: 31, month: 1 })).toBe('2025-01-31');
    expect(firstPeriodEnd('2024-01-15', { day: 31, month: 12 })).toBe('2024-12-31');
    expect(firstPeriodEnd('2024-10-15', { day: 31, month: 3 })).toBe('2026-03-31'); // 5.5 months is too short → next year
    expect(firstPeriodEnd('2024-09-15', { day: 31, month: 3 })).toBe('2025-03-31');
    expect(firstPeriodEnd('2024-08-15', { day: 31, month: 3 })).toBe('2025-03-31');
  });
});

describe('Corporation Tax', () => {
  it.each([
    ['2026-03-31', '2027-01-01'],
    ['2025-02-28', '2025-12-01'], // the brief's month-end example
    ['2024-02-29', '2024-12-01'],
    ['2025-06-30', '2026-04-01'], // HMRC CTM92010
    ['2025-12-31', '2026-10-01'],
    ['2025-05-15', '2026-02-16'],
  ])('payment for a period ending %s is due %s (9 months and 1 day)', (end, expected) => {
    expect(ctPaymentDue(end)).toBe(expected);
  });

  it.each([
    ['2025-04-01', '2026-03-31', '2027-03-31'],
    ['2023-03-01', '2024-02-29', '2025-02-28'],
    ['2024-01-15', '2025-06-30', '2026-06-30'], // 17.5 months: still 12 months after the end
    ['2024-01-01', '2025-12-31', '2026-07-01'], // over 18 months: 30 months from the start
  ])('CT600 for %s to %s is due %s', (start, end, expected) => {
    expect(ct600Due({ start, end })).toBe(expected);
  });

  it('a period of account over 12 months is two accounting periods (CTA 2009 s.10)', () => {
    expect(ctAccountingPeriods('2024-01-15', '2025-01-31')).toEqual([
      { start: '2024-01-15', end: '2025-01-14' },
      { start: '2025-01-15', end: '2025-01-31' },
    ]);
    expect(ctAccountingPeriods('2025-04-01', '2026-03-31')).toEqual([{ start: '2025-04-01', end: '2026-03-31' }]);
    expect(ctAccountingPeriods('2024-03-01', '2025-02-28')).toEqual([{ start: '2024-03-01', end: '2025-02-28' }]);
  });
});

describe('confirmation statement and VAT', () => {
  it('confirmation statement: 14 days after the review date (s.853A)', () => {
    expect(confirmationDue('2026-07-31')).toBe('2026-08-14');
    expect(confirmationDue('2024-02-20')).toBe('2024-03-05'); // over a leap day
    expect(confirmationDue('2025-02-20')).toBe('2025-03-06');
  });

  it.each([
    ['2026-03-31', '2026-05-07'],
    ['2026-06-30', '2026-08-07'],
    ['2026-01-31', '2026-03-07'],
    ['2024-02-29', '2024-04-07'],
    ['2026-11-30', '2027-01-07'],
    ['2026-12-31', '2027-02-07'],
  ])('VAT period ending %s: return and payment by %s', (end, due) => {
    expect(vatDue(end)).toBe(due);
  });

  it('annual accounting: 2 months after the year end', () => {
    expect(vatAnnualDue('2026-03-31')).toBe('2026-05-31');
    expect(vatAnnualDue('2025-12-31')).toBe('2026-02-28');
  });

  it.each([
    ['stagger_1', ['2026-12-31', '2027-03-31']],
    ['stagger_2', ['2026-10-31', '2027-01-31']],
    ['stagger_3', ['2026-11-30', '2027-02-28']],
  ] as const)('%s quarter ends', (scheme, ends) => {
    const ds = computeDeadlines({ profile: profile({ vat_scheme: scheme }), company: null, from: '2026-11-23', to: '2027-05-10' });
    expect(ds.filter((d) => d.kind === 'vat_return').map((d) => d.periodEnd)).toEqual(ends);
  });

  it('monthly VAT: one return a month', () => {
    const ds = computeDeadlines({ profile: profile({ vat_scheme: 'monthly' }), company: null, from: '2026-11-23', to: '2027-02-28' });
    expect(ds.map((d) => [d.periodEnd, d.dueOn])).toEqual([
      ['2026-10-31', '2026-12-07'],
      ['2026-11-30', '2027-01-07'],
      ['2026-12-31', '2027-02-07'],
    ]);
  });
});

describe('Self Assessment, PAYE and MTD for Income Tax', () => {
  const jane = { id: 'jane', name: 'Jane Smith', role: 'director' as const, paper_return: false, qualifying_income: null };

  it('online filer: POA1 and balancing payment and return on 31 January, POA2 on 31 July', () => {
    const ds = computeDeadlines({ profile: profile({ sa_taxpayers: [jane] }), company: null, from: '2026-11-23', to: '2027-07-31' });
    expect(ds.map((d) => [d.kind, d.dueOn, d.period])).toEqual([
      ['sa_balancing_payment', '2027-01-31', '2025-26 — Jane Smith'],
      ['sa_online_return', '2027-01-31', '2025-26 — Jane Smith'],
      ['sa_payment_on_account_1', '2027-01-31', '2026-27 — Jane Smith'],
      ['sa_payment_on_account_2', '2027-07-31', '2026-27 — Jane Smith'],
    ]);
  });

  it('paper filer: 31 October', () => {
    const ds = computeDeadlines({
      profile: profile({ sa_taxpayers: [{ ...jane, paper_return: true }] }),
      company: null,
      from: '2027-10-01',
      to: '2027-10-31',
    });
    expect(ds.map((d) => [d.kind, d.dueOn])).toEqual([['sa_paper_return', '2027-10-31']]);
  });

  it.each([
    [50_000, 2026, false], // "above £50,000"
    [50_001, 2026, true],
    [40_000, 2026, false],
    [40_000, 2027, true],
    [30_000, 2027, false],
    [25_000, 2028, true],
    [20_000, 2028, false],
    [80_000, 2025, false], // nobody before 6 April 2026
  ])('MTD for Income Tax: £%i in the tax year from %i → %s', (income, year, expected) => {
    expect(mtdInScope({ role: 'sole_trader', qualifying_income: income }, year)).toBe(expected);
  });

  it('MTD does not apply to directors or partners', () => {
    expect(mtdInScope({ role: 'director', qualifying_income: 90_000 }, 2026)).toBe(false);
    expect(mtdInScope({ role: 'partner', qualifying_income: 90_000 }, 2026)).toBe(false);
    expect(mtdInScope({ role: 'landlord', qualifying_income: 90_000 }, 2026)).toBe(true);
  });

  it('MTD in scope: quarterly updates 7 Aug, 7 Nov, 7 Feb, 7 May and the final declaration on 31 January', () => {
    const sole = { id: 's1', name: 'Sam Trader', role: 'sole_trader' as const, paper_return: false, qualifying_income: 60_000 };
    const ds = computeDeadlines({ profile: profile({ sa_taxpayers: [sole] }), company: null, from: '2026-04-06', to: '2028-01-31' });
    expect(ds.filter((d) => d.kind === 'mtd_quarterly_update').map((d) => d.dueOn)).toEqual([
      '2026-08-07',
      '2026-11-07',
      '2027-02-07',
      '2027-05-07',
      '2027-08-07',
      '2027-11-07',
    ]);
    expect(ds.filter((d) => d.kind === 'mtd_final_declaration').map((d) => d.dueOn)).toEqual(['2028-01-31']);
    // 2025-26 (before MTD) still has an ordinary return.
    expect(ds.filter((d) => d.kind === 'sa_online_return').map((d) => d.dueOn)).toEqual(['2027-01-31']);
  });

  it('PAYE: FPS on each payday (31 → month end), payment by the 22nd, P11D 6 July, Class 1A 22 July', () => {
    const ds = computeDeadlines({
      profile: profile({ paye_scheme: true, paye_payday: 31 }),
      company: null,
      from: '2027-02-01',
      to: '2027-07-31',
    });
    expect(ds.filter((d) => d.kind === 'paye_fps').map((d) => d.dueOn)).toEqual([
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
      '2027-07-31',
    ]);
    expect(ds.filter((d) => d.kind === 'paye_payment').map((d) => [d.period, d.dueOn])[0]).toEqual([
      'Tax month to 05 Feb 2027',
      '2027-02-22',
    ]);
    expect(ds.filter((d) => d.kind === 'p11d').map((d) => [d.period, d.dueOn])).toEqual([['2026-27', '2027-07-06']]);
    expect(ds.filter((d) => d.kind === 'class_1a_payment').map((d) => d.dueOn)).toEqual(['2027-07-22']);
    const leap = computeDeadlines({
      profile: profile({ paye_scheme: true, paye_payday: 30 }),
      company: null,
      from: '2028-02-01',
      to: '2028-02-29',
    });
    expect(leap.filter((d) => d.kind === 'paye_fps').map((d) => d.dueOn)).toEqual(['2028-02-29']);
  });
});

/** The acceptance example's company as Companies House describes it (09876543, accounts to 31 March). */
const ACME_LINKED: CompanyFacts = {
  status: 'active',
  incorporatedOn: '2016-01-10',
  ard: { day: 31, month: 3 },
  nextAccountsPeriodEnd: '2026-03-31',
  nextAccountsDueOn: '2026-12-31',
  lastAccountsMadeUpTo: '2025-03-31',
  confirmationNextDue: '2026-08-14',
  confirmationNextMadeUpTo: '2026-07-31',
};

// An LLP (decision 664): accounts and confirmation statements as a private company (Companies Act 2006 as
// applied to LLPs by SI 2008/1911 and SI 2009/1804: accounts 9 months after the period end), but no
// Corporation Tax (ITTOIA 2005 s.863, CTA 2009 s.1273): its members pay Income Tax on their shares.
describe('a limited liability partnership', () => {
  const facts: CompanyFacts = { ...ACME_LINKED, type: 'llp' };
  const kinds = (ds: Array<{ kind: string; dueOn: string }>) => ds.map((d) => `${d.kind} ${d.dueOn}`);

  it.each([
    // [case, business type, Companies House facts, expected deadlines 1 Jul 2026 – 30 Apr 2027]
    ['LLP by business type, details by hand', 'llp', null, ['accounts 2026-12-31', 'confirmation_statement 2027-01-24']],
    ['LLP by Companies House type, no business type', null, facts, ['confirmation_statement 2026-08-14', 'accounts 2026-12-31']],
    ['LLP by both', 'llp', facts, ['confirmation_statement 2026-08-14', 'accounts 2026-12-31']],
  ] as const)('%s: accounts and confirmation statement, no Corporation Tax', (_case, businessType, company, expected) => {
    const ds = computeDeadlines({
      profile: profile({
        company_number: 'OC123456',
        incorporation_date: '2016-01-10',
        ard_day: 31,
        ard_month: 3,
        last_accounts_made_up_to: '2025-03-31',
      }),
      businessType,
      company,
      from: '2026-07-01',
      to: '2027-04-30',
    });
    expect(kinds(ds)).toEqual(expected);
    expect(ds.some((d) => d.kind === 'ct600' || d.kind === 'ct_payment')).toBe(false);
  });

  it('the same details as a limited company do have Corporation Tax (payment 9 months and 1 day, return 12 months)', () => {
    const ds = computeDeadlines({
      profile: profile({
        company_number: '09876543',
        incorporation_date: '2016-01-10',
        ard_day: 31,
        ard_month: 3,
        last_accounts_made_up_to: '2025-03-31',
      }),
      businessType: 'limited',
      company: null,
      from: '2026-07-01',
      to: '2027-04-30',
    });
    expect(kinds(ds)).toEqual(['accounts 2026-12-31', 'ct_payment 2027-01-01', 'confirmation_statement 2027-01-24', 'ct600 2027-03-31']);
    expect(isLlp({ businessType: 'limited', company: { ...facts, type: 'ltd' } })).toBe(false);
  });
});

describe('a company end to end', () => {
  const linked = ACME_LINKED;

  it('linked to Companies House (the acceptance example): its dates first, rules after', () => {
    const ds = computeDeadlines({
      profile: profile({ company_number: '09876543' }),
      company: linked,
      from: '2026-07-01',
      to: '2027-04-30',
    });
    const pick = (kind: string) => ds.filter((d) => d.kind === kind).map((d) => [d.dueOn, d.source]);
    expect(pick('accounts')).toEqual([['2026-12-31', 'companies_house']]);
    expect(pick('confirmation_statement')).toEqual([['2026-08-14', 'companies_house']]);
    expect(pick('ct_payment')).toEqual([['2027-01-01', 'rule']]);
    expect(pick('ct600')).toEqual([['2027-03-31', 'rule']]);
  });

  it('Companies House wins over the rule when they differ (an extension)', () => {
    const ds = computeDeadlines({
      profile: profile({ company_number: '09876543' }),
      company: { ...linked, nextAccountsDueOn: '2027-03-31' },
      from: '2026-07-01',
      to: '2027-04-30',
    });
    expect(ds.find((d) => d.kind === 'accounts')?.dueOn).toBe('2027-03-31');
  });

  it('the period filed last still owes its CT600', () => {
    const ds = computeDeadlines({ profile: profile({}), company: linked, from: '2026-01-01', to: '2026-04-30' });
    expect(ds.map((d) => [d.kind, d.periodEnd, d.dueOn])).toContainEqual(['ct600', '2025-03-31', '2026-03-31']);
  });

  it('a dissolved company raises nothing', () => {
    const ds = computeDeadlines({
      profile: profile({ vat_scheme: 'stagger_1', paye_scheme: true, paye_payday: 25 }),
      company: { ...linked, status: 'dissolved' },
      from: '2026-01-01',
      to: '2027-12-31',
    });
    expect(ds).toEqual([]);
  });

  it('by rule, a new private company with a 29 February year end', () => {
    const ds = computeDeadlines({
      profile: profile({ incorporation_date: '2023-03-01', ard_day: 29, ard_month: 2 }),
      company: null,
      from: '2024-03-01',
      to: '2025-12-31',
    });
    const first = ds.filter((d) => d.periodEnd === '2024-02-29').map((d) => [d.kind, d.dueOn]);
    expect(first).toEqual([
      ['accounts', '2024-11-30'],
      ['ct_payment', '2024-12-01'],
      ['ct600', '2025-02-28'],
    ]);
    // The next year end in a common year is 28 February.
    expect(ds.filter((d) => d.kind === 'accounts').map((d) => [d.periodEnd, d.dueOn])).toEqual([
      ['2024-02-29', '2024-11-30'],
      ['2025-02-28', '2025-11-30'],
    ]);
    // Confirmation statement: 12 months after incorporation, then yearly, each due 14 days later.
    expect(ds.filter((d) => d.kind === 'confirmation_statement').map((d) => d.dueOn)).toEqual(['2024-03-15', '2025-03-15']);
  });

  it('by rule, a long first period splits Corporation Tax in two', () => {
    const ds = computeDeadlines({
      profile: profile({ incorporation_date: '2024-01-15', ard_day: 31, ard_month: 1 }),
      company: null,
      from: '2024-06-01',
      to: '2026-02-01',
    });
    expect(ds.filter((d) => d.kind === 'accounts').map((d) => [d.periodEnd, d.dueOn])[0]).toEqual(['2025-01-31', '2025-10-15']);
    expect(
      ds
        .filter((d) => d.kind === 'ct_payment')
        .map((d) => [d.periodEnd, d.dueOn])
        .slice(0, 2),
    ).toEqual([
      ['2025-01-14', '2025-10-15'],
      ['2025-01-31', '2025-11-01'],
    ]);
    expect(
      ds
        .filter((d) => d.kind === 'ct600')
        .map((d) => d.dueOn)
        .slice(0, 2),
    ).toEqual(['2026-01-31', '2026-01-31']);
  });
});

describe('status and reconciliation', () => {
  it.each([
    ['2026-11-22', null, 'overdue'],
    ['2026-11-23', null, 'due_soon'],
    ['2026-12-07', null, 'due_soon'],
    ['2026-12-08', null, 'upcoming'],
    ['2026-11-01', '2026-10-30T10:00:00Z', 'done'],
  ])('due %s, done %s, today 23 Nov 2026 → %s', (due, done, expected) => {
    expect(deadlineStatus(due, done, '2026-11-23')).toBe(expected);
  });

  it('a moved date is an update and a move; a done deadline is never touched; stale open ones in the window go', () => {
    const stored = [
      {
        id: 'a',
        key: 'accounts:2026-03-31',
        dueOn: '2026-12-31',
        period: 'Year ended 31 Mar 2026',
        periodEnd: '2026-03-31',
        source: 'companies_house',
        doneAt: null,
      },
      {
        id: 'b',
        key: 'vat_return:2026-09-30',
        dueOn: '2026-11-07',
        period: 'Q',
        periodEnd: '2026-09-30',
        source: 'rule',
        doneAt: new Date(),
      },
      { id: 'c', key: 'vat_return:2026-12-31', dueOn: '2027-02-07', period: 'Q', periodEnd: '2026-12-31', source: 'rule', doneAt: null },
      { id: 'd', key: 'vat_return:2020-12-31', dueOn: '2021-02-07', period: 'Q', periodEnd: '2020-12-31', source: 'rule', doneAt: null },
    ];
    const computed = [
      {
        key: 'accounts:2026-03-31',
        kind: 'accounts' as const,
        period: 'Year ended 31 Mar 2026',
        periodEnd: '2026-03-31',
        dueOn: '2027-03-31',
        source: 'companies_house' as const,
      },
      {
        key: 'ct600:2026-03-31',
        kind: 'ct600' as const,
        period: 'Year ended 31 Mar 2026',
        periodEnd: '2026-03-31',
        dueOn: '2027-03-31',
        source: 'rule' as const,
      },
    ];
    const r = reconcile(stored, computed, { from: '2026-10-23', to: '2028-01-01' });
    expect(r.insert.map((c) => c.key)).toEqual(['ct600:2026-03-31']);
    expect(r.moves).toEqual([{ id: 'a', key: 'accounts:2026-03-31', from: '2026-12-31', to: '2027-03-31' }]);
    expect(r.remove).toEqual(['c']);
  });
});
