import { TaxProfileDefaults, type SaTaxpayer, type TaxProfileInput } from '@countinghouse/proto';
import { describe, expect, it } from 'vitest';
import { computeDeadlines, mtdTaxpayerId } from '../src/domain/engine.js';
import { mtdYears, taxYearOfPeriodEnd, type MtdObligationFact } from '../src/domain/mtd-obligations.js';

// HMRC's MTD for Income Tax obligations over the engine's own rule (issue 31; decisions 600-601).

const profile = (p: Partial<TaxProfileInput>): TaxProfileInput => ({ ...TaxProfileDefaults, ...p });
const sole: SaTaxpayer = { id: 's1', name: 'Sam Trader', role: 'sole_trader', paper_return: false, qualifying_income: 60_000 };
const director: SaTaxpayer = { id: 'd1', name: 'Dee Director', role: 'director', paper_return: false, qualifying_income: null };

const q = (start: string, end: string, due: string, o: Partial<MtdObligationFact> = {}): MtdObligationFact => ({
  kind: 'quarterly',
  businessId: 'XAIS12345678901',
  periodStartDate: start,
  periodEndDate: end,
  dueDate: due,
  status: 'open',
  receivedDate: null,
  ...o,
});

// Calendar quarters (the election HMRC allows): to 30 Jun, 30 Sep, 31 Dec, 31 Mar, due the 7th of the
// second month after; the final declaration for 2026-27 due 31 January 2028.
const calendar2026: MtdObligationFact[] = [
  q('2026-04-06', '2026-06-30', '2026-08-07', { status: 'fulfilled', receivedDate: '2026-08-01' }),
  q('2026-07-01', '2026-09-30', '2026-11-07'),
  q('2026-10-01', '2026-12-31', '2027-02-07'),
  q('2027-01-01', '2027-03-31', '2027-05-07'),
  {
    kind: 'final_declaration',
    businessId: null,
    periodStartDate: '2026-04-06',
    periodEndDate: '2027-04-05',
    dueDate: '2028-01-31',
    status: 'open',
    receivedDate: null,
  },
];

describe('the tax year of an MTD period (6 April to 5 April, ITA 2007 s.4)', () => {
  it.each([
    ['2026-07-05', 2026],
    ['2026-06-30', 2026],
    ['2026-12-31', 2026],
    ['2027-01-05', 2026],
    ['2027-03-31', 2026], // the calendar election's last quarter
    ['2027-04-05', 2026],
    ['2027-04-06', 2027],
    ['2028-02-29', 2027], // leap day
    ['2028-04-05', 2027],
  ])('a period ending %s belongs to the tax year from 6 April %i', (end, year) => {
    expect(taxYearOfPeriodEnd(end)).toBe(year);
  });
});

describe("HMRC's obligations by tax year", () => {
  it('one deadline per quarter across businesses: the earliest due date, done only when every business is in', () => {
    const years = mtdYears([
      q('2026-04-06', '2026-07-05', '2026-08-07', { businessId: 'SE1', status: 'fulfilled', receivedDate: '2026-08-02' }),
      q('2026-04-06', '2026-07-05', '2026-08-07', { businessId: 'PROP1', status: 'fulfilled', receivedDate: '2026-08-05' }),
      q('2026-07-06', '2026-10-05', '2026-11-07', { businessId: 'SE1', status: 'fulfilled', receivedDate: '2026-11-01' }),
      q('2026-07-06', '2026-10-05', '2026-11-06', { businessId: 'PROP1' }),
    ]);
    expect(years.get(2026)).toEqual({
      quarters: [
        { periodEnd: '2026-07-05', dueOn: '2026-08-07', fulfilledOn: '2026-08-05' },
        { periodEnd: '2026-10-05', dueOn: '2026-11-06', fulfilledOn: null },
      ],
      finalDeclaration: null,
    });
  });

  it('malformed dates are left out; a fulfilled one without a receipt date counts as in on its due date', () => {
    const years = mtdYears([
      q('2026-04-06', 'not-a-date', '2026-08-07'),
      q('2026-07-06', '2026-10-05', '2026-11-07', { status: 'fulfilled', receivedDate: null }),
    ]);
    expect(years.get(2026)?.quarters).toEqual([{ periodEnd: '2026-10-05', dueOn: '2026-11-07', fulfilledOn: '2026-11-07' }]);
  });
});

describe("the engine with HMRC's obligations", () => {
  const window = { from: '2026-04-06', to: '2028-01-31' };

  it("HMRC's calendar quarters replace the rule's for that year, with source hmrc; the next year stays by rule", () => {
    const ds = computeDeadlines({ profile: profile({ sa_taxpayers: [sole] }), company: null, ...window, mtdObligations: calendar2026 });
    const quarters = ds.filter((d) => d.kind === 'mtd_quarterly_update');
    expect(quarters.map((d) => [d.periodEnd, d.dueOn, d.source])).toEqual([
      ['2026-06-30', '2026-08-07', 'hmrc'],
      ['2026-09-30', '2026-11-07', 'hmrc'],
      ['2026-12-31', '2027-02-07', 'hmrc'],
      ['2027-03-31', '2027-05-07', 'hmrc'],
      // 2027-28: nothing from HMRC yet, the standard quarters by rule
      ['2027-07-05', '2027-08-07', 'rule'],
      ['2027-10-05', '2027-11-07', 'rule'],
    ]);
    expect(quarters[0]!.period).toBe('Quarter to 30 Jun 2026 — Sam Trader');
    expect(quarters[0]!.fulfilledOn).toBe('2026-08-01');
    expect(quarters[1]!.fulfilledOn).toBeUndefined();
    const fd = ds.filter((d) => d.kind === 'mtd_final_declaration');
    expect(fd.map((d) => [d.dueOn, d.source])).toEqual([['2028-01-31', 'hmrc']]);
  });

  it('a standard quarter keeps the key of the computed one, so a stored deadline moves rather than doubles', () => {
    const byRule = computeDeadlines({ profile: profile({ sa_taxpayers: [sole] }), company: null, ...window });
    const byHmrc = computeDeadlines({
      profile: profile({ sa_taxpayers: [sole] }),
      company: null,
      ...window,
      mtdObligations: [q('2026-04-06', '2026-07-05', '2026-08-10')],
    });
    const key = byRule.find((d) => d.kind === 'mtd_quarterly_update')!.key;
    const moved = byHmrc.find((d) => d.key === key)!;
    expect([moved.dueOn, moved.source]).toEqual(['2026-08-10', 'hmrc']);
  });

  it('HMRC says signed up: MTD deadlines even when the profile gives no income, and no ordinary return that year', () => {
    const unknown = { ...sole, qualifying_income: null };
    const ds = computeDeadlines({ profile: profile({ sa_taxpayers: [unknown] }), company: null, ...window, mtdObligations: calendar2026 });
    expect(ds.filter((d) => d.kind === 'mtd_quarterly_update' && d.source === 'hmrc')).toHaveLength(4);
    expect(ds.filter((d) => d.kind === 'sa_online_return' && d.periodEnd === '2027-04-05')).toEqual([]);
  });

  it('an open HMRC obligation long past due is kept (outstanding); a fulfilled one before the window is not', () => {
    const ds = computeDeadlines({
      profile: profile({ sa_taxpayers: [sole] }),
      company: null,
      from: '2026-10-01',
      to: '2027-06-30',
      mtdObligations: calendar2026,
    });
    const quarters = ds.filter((d) => d.kind === 'mtd_quarterly_update').map((d) => d.dueOn);
    expect(quarters).toEqual(['2026-11-07', '2027-02-07', '2027-05-07']);
    const late = computeDeadlines({
      profile: profile({ sa_taxpayers: [sole] }),
      company: null,
      from: '2026-10-01',
      to: '2027-06-30',
      mtdObligations: [q('2026-04-06', '2026-06-30', '2026-08-07')],
    });
    expect(late.find((d) => d.kind === 'mtd_quarterly_update')?.dueOn).toBe('2026-08-07');
  });

  it("the obligations are the sole trader's or landlord's: a director on the same profile keeps the rule", () => {
    expect(mtdTaxpayerId(profile({ sa_taxpayers: [director, sole] }))).toBe('s1');
    expect(mtdTaxpayerId(profile({ sa_taxpayers: [director] }))).toBeNull();
    const ds = computeDeadlines({
      profile: profile({ sa_taxpayers: [director] }),
      company: null,
      ...window,
      mtdObligations: calendar2026,
    });
    expect(ds.filter((d) => d.kind.startsWith('mtd_'))).toEqual([]);
    expect(ds.filter((d) => d.kind === 'sa_online_return').map((d) => d.dueOn)).toEqual(['2027-01-31', '2028-01-31']);
  });
});
