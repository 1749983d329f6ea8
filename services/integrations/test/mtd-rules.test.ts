import { describe, expect, it } from 'vitest';
import { fraudHeaders, FRAUD_HEADERS, validateFraudHeaders, type BrowserData, type ServerData } from '../src/domain/fraud-headers.js';
import {
  authorisationExpiry,
  finalDeclarationDue,
  isOverdue,
  ledgerFigures,
  ledgerPeriod,
  mtdScope,
  quarterLabel,
  quarterlyPeriods,
  taxYearOf,
} from '../src/domain/mtd-rules.js';
import { quickbooksLedgerLines } from '../src/adapters/quickbooks.js';
import { xeroLedgerLines } from '../src/adapters/xero.js';

const gbp = (pounds: number) => Math.round(pounds * 100);

describe('who is in scope (GOV.UK "if and when you need to use MTD for Income Tax"; SI 2021/1076)', () => {
  it.each([
    // [qualifying income by tax year, mandated from, date]
    [{ '2024-25': gbp(50_001) }, 'now', '2026-04-06'],
    [{ '2024-25': gbp(50_000) }, null, null], // "over" £50,000: exactly £50,000 is not
    [{ '2025-26': gbp(31_000) }, 'april_2027', '2027-04-06'], // the example
    [{ '2025-26': gbp(29_000) }, null, null], // the example: not in the April 2027 list
    [{ '2025-26': gbp(30_000.01) }, 'april_2027', '2027-04-06'],
    [{ '2026-27': gbp(21_000) }, 'april_2028', '2028-04-06'], // the example
    [{ '2026-27': gbp(20_000) }, null, null],
    [{ '2024-25': gbp(40_000), '2025-26': gbp(45_000) }, 'april_2027', '2027-04-06'],
    [{ '2024-25': gbp(60_000), '2025-26': gbp(10_000) }, 'now', '2026-04-06'], // the earliest step wins
    [{ '2023-24': gbp(90_000) }, null, null], // no step decided on 2023-24
    [{}, null, null],
  ] as const)('%o -> %s', (income, step, date) => {
    const s = mtdScope(income);
    expect(s.mandatedFrom).toBe(step);
    expect(s.mandatedFromDate).toBe(date);
    expect(Boolean(s.letter)).toBe(step !== null);
  });

  it('writes the letter with the income, threshold and start date, en-GB', () => {
    expect(mtdScope({ '2025-26': gbp(31_000) }).letter).toContain('£31,000, over the £30,000 threshold');
    expect(mtdScope({ '2025-26': gbp(31_000) }).letter).toContain('from 6 April 2027');
  });

  it('an exemption takes the client out of every list, with its reason', () => {
    const s = mtdScope({ '2024-25': gbp(80_000) }, 'Digitally excluded (age)');
    expect(s).toMatchObject({ mandatedFrom: null, letter: null, exemptionReason: 'Digitally excluded (age)' });
  });
});

describe('quarterly periods and deadlines (SI 2021/1076 Sch. A1: 7 Aug, 7 Nov, 7 Feb, 7 May)', () => {
  it('2026-27: cumulative from 6 April, standard quarter ends and due dates', () => {
    expect(quarterlyPeriods('2026-27').map((p) => [p.periodStartDate, p.periodEndDate, p.dueDate])).toEqual([
      ['2026-04-06', '2026-07-05', '2026-08-07'],
      ['2026-04-06', '2026-10-05', '2026-11-07'],
      ['2026-04-06', '2027-01-05', '2027-02-07'],
      ['2026-04-06', '2027-04-05', '2027-05-07'],
    ]);
    expect(finalDeclarationDue('2026-27')).toBe('2028-01-31');
  });

  it.each([
    ['2026-04-05', '2025-26'],
    ['2026-04-06', '2026-27'],
    ['2027-01-05', '2026-27'],
    ['2027-04-06', '2027-28'],
  ])('%s is in tax year %s', (d, ty) => expect(taxYearOf(d)).toBe(ty));

  it.each([
    ['2026-07-05', 'Q1 2026-27'],
    ['2026-10-05', 'Q2 2026-27'],
    ['2027-01-05', 'Q3 2026-27'],
    ['2027-04-05', 'Q4 2026-27'],
  ])('a period ending %s is %s', (end, label) => expect(quarterLabel(end)).toBe(label));

  it('an open obligation is overdue the day after its due date; a fulfilled one never', () => {
    expect(isOverdue({ status: 'open', dueDate: '2026-08-07' }, '2026-08-07')).toBe(false);
    expect(isOverdue({ status: 'open', dueDate: '2026-08-07' }, '2026-08-08')).toBe(true);
    expect(isOverdue({ status: 'fulfilled', dueDate: '2026-08-07' }, '2027-01-01')).toBe(false);
  });
});

describe('authorisation requests expire after 21 days (Agent Authorisation API 2.0)', () => {
  it.each([
    ['2026-11-26T10:00:00Z', '2026-12-17'],
    ['2026-03-29T23:30:00Z', '2026-04-20'], // 00:30 on 30 March in London (BST): the London date counts
    ['2027-02-20T12:00:00Z', '2027-03-13'],
  ])('requested %s -> expires %s', (at, exp) => expect(authorisationExpiry(new Date(at))).toBe(exp));
});

describe('fraud prevention headers, WEB_APP_VIA_SERVER', () => {
  const browser: BrowserData = {
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    deviceId: 'beec798b-b366-47fa-b1f8-92cede14a1ce',
    screens: [{ width: 1920, height: 1080, scalingFactor: 1.25, colourDepth: 24 }],
    windowSize: { width: 1256, height: 803 },
    utcOffsetMinutes: 60,
  };
  const server: ServerData = {
    clientIp: '198.51.100.0',
    clientPort: 52345,
    collectedAt: new Date('2026-11-26T14:30:05.120Z'),
    userId: 'a1b2c3',
    multiFactor: [{ type: 'TOTP', at: new Date('2026-11-26T09:00:00Z'), reference: 'fc4b5fd6' }],
    vendorPublicIp: '203.0.113.6',
    productName: 'Countinghouse',
    productVersion: '1.0.0',
    frontendVersion: '1.0.0',
  };
  const h = fraudHeaders(browser, server);

  it('builds all sixteen headers in the guide formats, and the validator passes them', () => {
    expect(Object.keys(h).sort()).toEqual([...FRAUD_HEADERS].sort());
    expect(h['Gov-Client-Public-IP-Timestamp']).toBe('2026-11-26T14:30:05.120Z');
    expect(h['Gov-Client-Timezone']).toBe('UTC+01:00');
    expect(h['Gov-Client-Screens']).toBe('width=1920&height=1080&scaling-factor=1.25&colour-depth=24');
    expect(h['Gov-Client-Window-Size']).toBe('width=1256&height=803');
    expect(h['Gov-Vendor-Forwarded']).toBe('by=203.0.113.6&for=198.51.100.0');
    expect(h['Gov-Client-Multi-Factor']).toBe('type=TOTP&timestamp=2026-11-26T09%3A00Z&unique-reference=fc4b5fd6');
    expect(h['Gov-Vendor-Version']).toBe('countinghouse-web=1.0.0&countinghouse-server=1.0.0');
    expect(validateFraudHeaders(h)).toEqual([]);
    expect(fraudHeaders({ ...browser, utcOffsetMinutes: -75 }, server)['Gov-Client-Timezone']).toBe('UTC-01:15');
  });

  it.each(FRAUD_HEADERS.map((n) => [n]))('fails when %s is missing', (name) => {
    const { [name]: _gone, ...rest } = h;
    expect(validateFraudHeaders(rest)).toEqual([`${name}: missing`]);
  });

  it.each([
    ['Gov-Client-Connection-Method', 'WEB_APP_VIA_CLIENT'],
    ['Gov-Client-Device-ID', 'my-laptop'],
    ['Gov-Client-Public-IP', 'localhost'],
    ['Gov-Client-Public-IP-Timestamp', '2026-11-26 14:30:05'],
    ['Gov-Client-Public-IP-Timestamp', '2026-11-26T14:30:05Z'],
    ['Gov-Client-Public-Port', '443'],
    ['Gov-Client-Public-Port', '70000'],
    ['Gov-Client-Screens', 'width=0&height=1080&scaling-factor=1&colour-depth=24'],
    ['Gov-Client-Screens', 'width=1920,height=1080'],
    ['Gov-Client-Timezone', '+01:00'],
    ['Gov-Client-Timezone', 'Europe/London'],
    ['Gov-Client-User-IDs', ''],
    ['Gov-Client-Window-Size', '1256x803'],
    ['Gov-Client-Multi-Factor', 'type=SMS&timestamp=2026-11-26T09%3A00Z&unique-reference=x'],
    ['Gov-Client-Multi-Factor', 'type=TOTP&timestamp=2026-11-26T09:00Z&unique-reference=x'],
    ['Gov-Vendor-Forwarded', 'by=203.0.113.6'],
    ['Gov-Vendor-Product-Name', 'Countinghouse Practice'],
    ['Gov-Vendor-Public-IP', ''],
    ['Gov-Vendor-Version', 'countinghouse=1.0.0'],
    ['Gov-Client-Browser-JS-User-Agent', ''],
  ])('fails when %s is malformed (%s)', (name, value) => {
    const problems = validateFraudHeaders({ ...h, [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}: `));
  });
});

describe('the ledger period of a cumulative update (6 April to the period end, inside the tax year)', () => {
  it.each([
    ['2026-27', '2026-07-05', { from: '2026-04-06', to: '2026-07-05' }], // Q1
    ['2026-27', '2026-04-06', { from: '2026-04-06', to: '2026-04-06' }], // the tax year's first day
    ['2026-27', '2027-04-05', { from: '2026-04-06', to: '2027-04-05' }], // its last
    ['2026-27', '2026-04-05', null], // the day before: 2025-26
    ['2026-27', '2027-04-06', null], // the day after: 2027-28
    ['2025-26', '2026-01-05', { from: '2025-04-06', to: '2026-01-05' }],
    ['2026-28', '2026-07-05', null], // not a tax year
  ])('%s to %s', (taxYear, end, expected) => {
    expect(ledgerPeriod(taxYear, end)).toEqual(expected);
  });
});

describe('figures from mapped ledger accounts', () => {
  it('adds each category in pence, leaves excluded accounts and empty categories out', () => {
    expect(
      ledgerFigures([
        { amount: 0.1, category: 'turnover' },
        { amount: 0.2, category: 'turnover' },
        { amount: -15.5, category: 'turnover' }, // a refund account nets off
        { amount: 40, category: 'other' },
        { amount: 99.99, category: 'exclude' },
        { amount: 12.34, category: 'adminCosts' },
        { amount: 0.01, category: 'adminCosts' },
        { amount: 0, category: 'depreciation' },
      ]),
    ).toEqual({ turnover: -15.2, other: 40, expenses: { adminCosts: 12.35 } });
  });
});

describe("the providers' profit and loss reports, read account by account", () => {
  it("Xero: account rows only (no summary, gross or net profit rows); class first, else the section's 'Less'", () => {
    const cell = (id: string | null, v: string) => ({ Value: v, ...(id ? { Attributes: [{ Id: 'account', Value: id }] } : {}) });
    const lines = xeroLedgerLines(
      {
        Reports: [
          {
            Rows: [
              { RowType: 'Header', Cells: [cell(null, ''), cell(null, '5 Jul 2026')] },
              {
                RowType: 'Section',
                Title: 'Income',
                Rows: [
                  { RowType: 'Row', Cells: [cell('a', 'Sales'), cell('a', '1,200.50')] },
                  { RowType: 'SummaryRow', Cells: [cell(null, 'Total Income'), cell(null, '1200.50')] },
                ],
              },
              {
                RowType: 'Section',
                Title: 'Less Operating Expenses',
                Rows: [{ RowType: 'Row', Cells: [cell('b', 'Rent'), cell('b', '300.00')] }],
              },
              { RowType: 'Section', Title: '', Rows: [{ RowType: 'Row', Cells: [cell(null, 'Net Profit'), cell(null, '900.50')] }] },
            ],
          },
        ],
      },
      [{ AccountID: 'a', Code: '200', Name: 'Sales', Class: 'REVENUE' }],
    );
    expect(lines).toEqual([
      { id: 'a', code: '200', name: 'Sales', kind: 'income', amount: 1200.5 },
      { id: 'b', code: null, name: 'Rent', kind: 'expense', amount: 300 },
    ]);
    expect(() => xeroLedgerLines({ Reports: [] }, [])).toThrow(/bad_response/);
  });

  it('QuickBooks: Data rows of the income and expense groups, sub-accounts under their parent, nothing from the totals', () => {
    const lines = quickbooksLedgerLines({
      Rows: {
        Row: [
          {
            type: 'Section',
            group: 'Income',
            Rows: {
              Row: [
                { type: 'Data', ColData: [{ value: 'Sales', id: '1' }, { value: '500.00' }] },
                { type: 'Section', Rows: { Row: [{ type: 'Data', ColData: [{ value: 'Fitting', id: '2' }, { value: '' }] }] } },
              ],
            },
          },
          {
            type: 'Section',
            group: 'OtherExpenses',
            Rows: { Row: [{ type: 'Data', ColData: [{ value: 'Interest', id: '3' }, { value: '9.99' }] }] },
          },
          { type: 'Section', group: 'NetIncome', Summary: { ColData: [{ value: 'Net Income' }, { value: '490.01' }] } },
        ],
      },
    });
    expect(lines).toEqual([
      { id: '1', code: null, name: 'Sales', kind: 'income', amount: 500 },
      { id: '2', code: null, name: 'Fitting', kind: 'income', amount: 0 },
      { id: '3', code: null, name: 'Interest', kind: 'expense', amount: 9.99 },
    ]);
    expect(() => quickbooksLedgerLines({})).toThrow(/bad_response/);
  });
});
