import { PACKAGES, enGbDate, londonDate } from '@countinghouse/proto';
import { describe, expect, it } from 'vitest';
import { cancellationEndsOn, isConsumer } from '../src/domain/cancellation.js';
import { londonDateTime } from '../src/domain/dates.js';
import { defaultTemplates } from '../src/domain/default-templates.js';
import { composeLetter, fill, sha256Hex, templateProblems, valuesOf, type LetterFacts } from '../src/domain/letter.js';
import { isPrintable, toPrintable } from '../src/domain/printable.js';
import { reminderDue } from '../src/domain/reminders.js';
import { clientStatus, letterNeeded, versionStatus } from '../src/domain/status.js';

const facts = (p: Partial<LetterFacts> = {}): LetterFacts => ({
  practice: { name: 'Countinghouse Accountants', email: 'hello@countinghouse.co.uk', phone: '020 7946 0321' },
  client: { name: 'Acme Widgets Ltd', contactName: 'Alice Widget', email: 'alice@acme.co.uk' },
  packageName: 'Growth',
  monthlyFee: 100,
  startDate: '2026-12-31',
  ...p,
});

describe('the 14-day cancellation period (Consumer Contracts Regulations 2013, regs. 29-30)', () => {
  // reg. 30(3)(a): the period ends 14 days after the day the service contract is entered into (signed).
  it.each([
    ['signed 1 Jan 2027, mid-morning', '2027-01-01T10:00:00Z', '2027-01-15'],
    ['signed 31 Dec 2026: runs into the new year', '2026-12-31T12:00:00Z', '2027-01-14'],
    ['signed 15 Feb 2028: a leap year reaches 29 Feb', '2028-02-15T09:00:00Z', '2028-02-29'],
    ['signed 15 Feb 2027: no 29 Feb, so 1 Mar', '2027-02-15T09:00:00Z', '2027-03-01'],
    ['signed 23:30 UTC on 30 Jun 2026 is 1 Jul in London (BST)', '2026-06-30T23:30:00Z', '2026-07-15'],
    ['signed 23:30 UTC on 30 Nov 2026 is still 30 Nov in London (GMT)', '2026-11-30T23:30:00Z', '2026-12-14'],
    ['signed on the night the clocks go forward (29 Mar 2026, 00:30 GMT)', '2026-03-29T00:30:00Z', '2026-04-12'],
  ])('%s → ends %s', (_label, signedAt, ends) => {
    expect(cancellationEndsOn(new Date(signedAt))).toBe(ends);
  });

  it.each([
    ['sole_trader', true],
    ['partnership', false],
    ['limited', false],
    [null, false],
  ])('a %s client is a consumer: %s', (type, expected) => {
    expect(isConsumer(type)).toBe(expected);
  });
});

describe('reminders 3 and 7 days after sending (London dates)', () => {
  it.each<[string, string, string, number[], number | null]>([
    ['day 2: too early', '2026-11-02', '2026-11-04', [], null],
    ['day 3: the first reminder', '2026-11-02', '2026-11-05', [], 3],
    ['day 3 again after it was sent', '2026-11-02', '2026-11-05', [3], null],
    ['day 5: nothing more', '2026-11-02', '2026-11-07', [3], null],
    ['day 7: the second reminder', '2026-11-02', '2026-11-09', [3], 7],
    ['day 8 after a missed run: only the day-7 one, never two at once', '2026-11-02', '2026-11-10', [], 7],
    ['day 30: both sent, nothing more', '2026-11-02', '2026-12-02', [3, 7], null],
    ['across the year end: sent 29 Dec 2026, day 3 is 1 Jan 2027', '2026-12-29', '2027-01-01', [], 3],
    ['across 29 Feb 2028: sent 26 Feb, day 3 is 29 Feb', '2028-02-26', '2028-02-29', [], 3],
  ])('%s', (_label, sentOn, today, sent, expected) => {
    expect(reminderDue(sentOn, today, sent)).toBe(expected);
  });
});

describe('placeholders and the letter text', () => {
  it('fills every placeholder with the practice, the client, the package, £100.00 and the start date', () => {
    const v = valuesOf(facts());
    expect(v.monthly_fee).toBe('£100.00');
    expect(v.start_date).toBe('31 Dec 2026');
    expect(fill('{{client_name}} pays {{ monthly_fee }} per month for {{package}} from {{start_date}}; ask {{practice_email}}', v)).toBe(
      'Acme Widgets Ltd pays £100.00 per month for Growth from 31 Dec 2026; ask hello@countinghouse.co.uk',
    );
    expect(fill('{{unknown}} stays', v)).toBe('{{unknown}} stays');
  });

  it('formats a fee of £1,234.50 the en-GB way', () => {
    expect(valuesOf(facts({ monthlyFee: 1234.5 })).monthly_fee).toBe('£1,234.50');
  });

  it('the cancellation notice is in a consumer’s letter only', () => {
    const t = defaultTemplates();
    const consumer = composeLetter(t, facts({ packageName: 'Sole Trader Package', monthlyFee: 40 }), true);
    const company = composeLetter(t, facts(), false);
    expect(consumer).toContain('YOUR RIGHT TO CANCEL');
    expect(consumer).toContain('within 14 days');
    expect(company).not.toContain('YOUR RIGHT TO CANCEL');
    expect(company).toContain('SCHEDULE OF SERVICES: Growth');
    expect(company).toContain('£100.00 per month');
    expect(company).toContain('Quarterly VAT returns (Making Tax Digital)');
    expect(company).not.toContain('{{');
  });

  it('the same facts make the same text and hash; a changed fee changes both', () => {
    const t = defaultTemplates();
    const a = composeLetter(t, facts(), false);
    expect(composeLetter(t, facts(), false)).toBe(a);
    expect(sha256Hex(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(sha256Hex(composeLetter(t, facts({ monthlyFee: 150 }), false))).not.toBe(sha256Hex(a));
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('refuses unknown placeholders, unprintable characters and a package without its schedule', () => {
    const t = defaultTemplates();
    expect(
      templateProblems(
        t,
        PACKAGES.map((p) => p.name),
      ),
    ).toEqual([]);
    const bad = { ...t, terms: 'Dear {{client_nam}}', privacy: 'Emoji 🙂', schedules: { ...t.schedules, Growth: '' } };
    const problems = templateProblems(
      bad,
      PACKAGES.map((p) => p.name),
    );
    expect(problems).toContainEqual({ path: '/terms', message: 'Unknown placeholder {{client_nam}}' });
    expect(problems.map((p) => p.path)).toContain('/privacy');
    expect(problems).toContainEqual({ path: '/schedules/Growth', message: 'A schedule of services is needed for Growth' });
  });

  it('client names the PDF font cannot print are made printable in the text itself', () => {
    expect(isPrintable('Café Crème £5 – “quoted” €')).toBe(true);
    expect(isPrintable('Łódź Ltd')).toBe(false);
    expect(toPrintable('Łódź Ltd')).toBe('?ódz Ltd');
    expect(toPrintable('Nguyễn 🙂')).toBe('Nguyen ?');
    expect(toPrintable('Zoë Šmíd')).toBe('Zoë Šmíd');
  });
});

describe('status of a letter and a client', () => {
  it.each([
    ['no letter', null, 'not_sent'],
    ['newest unsigned', { version: 2, signedAt: null }, 'awaiting_signature'],
    ['newest signed', { version: 2, signedAt: new Date('2026-11-24T10:00:00Z') }, 'signed'],
  ] as const)('%s → %s', (_l, newest, expected) => {
    expect(clientStatus(newest)).toBe(expected);
  });

  it('an older version is superseded, signed or not', () => {
    expect(versionStatus({ version: 1, signedAt: new Date() }, 2)).toBe('superseded');
    expect(versionStatus({ version: 1, signedAt: null }, 2)).toBe('superseded');
  });

  it.each([
    [
      'a paying client with an account and no letter',
      { userId: 'u', packageName: 'Growth', subscriptionStatus: 'active' },
      null,
      'onboarding',
    ],
    ['no sign-in account yet', { userId: null, packageName: 'Growth', subscriptionStatus: 'active' }, null, null],
    ['no package yet', { userId: 'u', packageName: null, subscriptionStatus: 'pending' }, null, null],
    ['cancelled', { userId: 'u', packageName: 'Growth', subscriptionStatus: 'cancelled' }, null, null],
    [
      'upgraded to Scale',
      { userId: 'u', packageName: 'Scale', subscriptionStatus: 'active' },
      { packageName: 'Growth' },
      'package_changed',
    ],
    [
      'same package (a fee or name edit)',
      { userId: 'u', packageName: 'Growth', subscriptionStatus: 'active' },
      { packageName: 'Growth' },
      null,
    ],
  ] as const)('%s → %s', (_l, client, newest, expected) => {
    expect(letterNeeded(client, newest)).toBe(expected);
  });
});

describe('dates', () => {
  it('London dates and times', () => {
    expect(enGbDate('2026-12-31')).toBe('31 Dec 2026');
    expect(londonDate(new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01');
    expect(londonDateTime(new Date('2026-07-01T09:15:03Z'))).toBe('1 Jul 2026, 10:15:03 BST');
    expect(londonDateTime(new Date('2026-11-24T10:15:03Z'))).toBe('24 Nov 2026, 10:15:03 GMT');
  });
});
