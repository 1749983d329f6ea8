// Table tests of the identity verification rules (ECCTA 2023; Companies House transition guidance):
// every case of issue #30 item 2, with month ends and leap years.
import type { CompanyOfficer, CompanyPsc, IdentityVerificationDetails } from '@countinghouse/proto';
import { describe, expect, it } from 'vitest';
import { parseOfficers, parsePscs } from '../src/adapters/companies-house/client.js';
import {
  derivedDueDate,
  identityStatus,
  identityStatusText,
  idvPeople,
  samePerson,
  transitionStatementDue,
  type IdvCompany,
  type IdvPerson,
} from '../src/domain/identity-verification.js';

const company: IdvCompany = { confirmationNextMadeUpTo: '2026-07-31', confirmationNextDue: '2026-08-14' };
const person = (p: Partial<IdvPerson>): IdvPerson => ({
  key: 'k',
  name: 'N',
  kind: 'director',
  corporate: false,
  startedOn: '2015-11-02',
  birth: null,
  alsoDirector: false,
  details: null,
  ...p,
});
const details = (d: Partial<IdentityVerificationDetails>): IdentityVerificationDetails => ({
  identity_verified_on: null,
  appointment_verification_statement_due_on: null,
  appointment_verification_start_on: null,
  appointment_verification_end_on: null,
  authorised_corporate_service_provider_name: null,
  anti_money_laundering_supervisory_bodies: [],
  preferred_name: null,
  appointment_verification_statement_date: null,
  ...d,
});

describe('the confirmation statement of the transition year (18 Nov 2025 to 17 Nov 2026)', () => {
  it.each([
    // [next made up to, next due, due of the transition-year statement]
    ['2026-07-31', '2026-08-14', '2026-08-14'], // in the year: Companies House's own due date
    ['2025-11-30', '2025-12-14', '2025-12-14'], // the first day range of the year
    ['2026-11-17', '2026-12-01', '2026-12-01'], // the last day of the year
    ['2026-11-18', '2026-12-02', '2025-12-02'], // a day after: last year's review (18 Nov 2025) counts
    ['2027-01-31', '2027-02-14', '2026-02-14'], // filed already this year: the one a year before, month end
    ['2028-02-29', '2028-03-14', '2026-03-14'], // leap-day review rolled back two years: 28 Feb 2026
    ['2027-02-28', '2027-03-14', '2026-03-14'], // 28 Feb 2026 + 14 days
    ['2025-11-10', '2025-11-24', '2026-11-24'], // statement overdue at the start: next year's review counts
  ])('next made up to %s (due %s): %s', (madeUpTo, nextDue, expected) => {
    expect(transitionStatementDue({ confirmationNextMadeUpTo: madeUpTo, confirmationNextDue: nextDue })).toBe(expected);
  });

  it('works from the due date alone (review = due - 14 days), and knows nothing without either', () => {
    expect(transitionStatementDue({ confirmationNextMadeUpTo: null, confirmationNextDue: '2027-03-14' })).toBe('2026-03-14');
    expect(transitionStatementDue({ confirmationNextMadeUpTo: null, confirmationNextDue: null })).toBeNull();
  });
});

describe('derived due dates, one rule per case', () => {
  it.each<[string, Partial<IdvPerson>, IdvCompany, string | null, string | null]>([
    // new director: before appointment (on or after 18 Nov 2025)
    ['new director', { startedOn: '2026-01-31' }, company, '2026-01-31', 'before_appointment'],
    ['new director on the first day', { startedOn: '2025-11-18' }, company, '2025-11-18', 'before_appointment'],
    ['new director on a leap day', { startedOn: '2028-02-29' }, company, '2028-02-29', 'before_appointment'],
    // existing director: by the company's confirmation statement in the transition year
    ['existing director', { startedOn: '2015-11-02' }, company, '2026-08-14', 'confirmation_statement'],
    ['existing director appointed the day before', { startedOn: '2025-11-17' }, company, '2026-08-14', 'confirmation_statement'],
    [
      'existing director, statement already filed (review 31 Jan 2026)',
      {},
      { confirmationNextMadeUpTo: '2027-01-31', confirmationNextDue: '2027-02-14' },
      '2026-02-14',
      'confirmation_statement',
    ],
    ['existing director, no statement dates', {}, { confirmationNextMadeUpTo: null, confirmationNextDue: null }, null, null],
    // PSC who is also a director: within 14 days after that statement
    ['PSC also a director', { kind: 'psc', alsoDirector: true }, company, '2026-08-28', 'after_confirmation_statement'],
    [
      'PSC also a director, across a month end',
      { kind: 'psc', alsoDirector: true },
      { confirmationNextMadeUpTo: '2026-10-11', confirmationNextDue: '2026-10-25' },
      '2026-11-08',
      'after_confirmation_statement',
    ],
    [
      'PSC also a director, into a leap February',
      { kind: 'psc', alsoDirector: true },
      { confirmationNextMadeUpTo: '2028-01-31', confirmationNextDue: '2028-02-14' },
      '2026-02-28',
      'after_confirmation_statement',
    ],
    // other existing PSC: first 14 days of the month of birth, the first such month ending on or after 18 Nov 2025
    ['PSC born in December', { kind: 'psc', birth: { month: 12, year: 1970 } }, company, '2025-12-14', 'month_of_birth'],
    ['PSC born in November', { kind: 'psc', birth: { month: 11, year: 1970 } }, company, '2026-11-14', 'month_of_birth'],
    ['PSC born in January', { kind: 'psc', birth: { month: 1, year: 1990 } }, company, '2026-01-14', 'month_of_birth'],
    [
      'PSC born in February (29th, leap year of birth)',
      { kind: 'psc', birth: { month: 2, year: 1988 } },
      company,
      '2026-02-14',
      'month_of_birth',
    ],
    ['PSC whose birth month is not published', { kind: 'psc', birth: null }, company, null, null],
    // new PSC: within 14 days of registration
    ['new PSC', { kind: 'psc', startedOn: '2026-11-20' }, company, '2026-12-04', 'new_psc_14_days'],
    ['new PSC at a year end', { kind: 'psc', startedOn: '2026-12-31' }, company, '2027-01-14', 'new_psc_14_days'],
    ['new PSC in a leap February', { kind: 'psc', startedOn: '2028-02-20' }, company, '2028-03-05', 'new_psc_14_days'],
    ['new PSC in a common February', { kind: 'psc', startedOn: '2027-02-20' }, company, '2027-03-06', 'new_psc_14_days'],
    [
      'new PSC who is also a director (registration rule first)',
      { kind: 'psc', startedOn: '2026-11-20', alsoDirector: true },
      company,
      '2026-12-04',
      'new_psc_14_days',
    ],
    // relevant legal entity: within 28 days, through its verified relevant officer
    ['relevant legal entity', { kind: 'relevant_legal_entity', startedOn: '2026-11-20' }, company, '2026-12-18', 'rle_28_days'],
    [
      'relevant legal entity in a leap February',
      { kind: 'relevant_legal_entity', startedOn: '2028-02-01' },
      company,
      '2028-02-29',
      'rle_28_days',
    ],
    [
      'relevant legal entity in a common February',
      { kind: 'relevant_legal_entity', startedOn: '2027-02-01' },
      company,
      '2027-03-01',
      'rle_28_days',
    ],
    [
      'relevant legal entity on a month end',
      { kind: 'relevant_legal_entity', startedOn: '2026-01-31' },
      company,
      '2026-02-28',
      'rle_28_days',
    ],
    [
      'existing relevant legal entity: not decided by these facts',
      { kind: 'relevant_legal_entity', startedOn: '2019-04-06' },
      company,
      null,
      null,
    ],
  ])('%s', (_label, p, c, dueOn, rule) => {
    const d = derivedDueDate(person(p), c);
    expect(d ? [d.dueOn, d.rule] : [null, null]).toEqual([dueOn, rule]);
  });
});

describe('status per person', () => {
  const today = '2026-11-23';
  it('verified by Companies House wins; then the practice record; by whom is kept', () => {
    const v = identityStatus(
      person({ details: details({ identity_verified_on: '2026-03-02', authorised_corporate_service_provider_name: 'LEDGER ACSP' }) }),
      company,
      today,
    );
    expect(v).toEqual({ status: 'verified', verifiedOn: '2026-03-02', by: 'LEDGER ACSP' });
    expect(identityStatus(person({}), company, today, { verifiedOn: '2026-11-01', byName: 'Test Practice' })).toEqual({
      status: 'verified',
      verifiedOn: '2026-11-01',
      by: 'Test Practice',
    });
  });

  it("Companies House's due date is taken over the rule; overdue once it has passed (not on the day)", () => {
    const p = person({ details: details({ appointment_verification_statement_due_on: '2026-12-14' }) });
    expect(identityStatus(p, company, today)).toEqual({ status: 'due', dueOn: '2026-12-14', source: 'companies_house', rule: null });
    expect(identityStatus(person({ details: details({ appointment_verification_statement_due_on: today }) }), company, today).status).toBe(
      'due',
    );
    expect(
      identityStatus(person({ details: details({ appointment_verification_statement_due_on: '2026-11-22' }) }), company, today).status,
    ).toBe('overdue');
    expect(identityStatus(person({ kind: 'psc', birth: null }), company, today)).toEqual({ status: 'unknown' });
  });

  it('texts as the product shows them', () => {
    const texts = [
      person({ details: details({ identity_verified_on: '2026-03-02' }) }),
      person({ details: details({ appointment_verification_statement_due_on: '2026-12-14' }) }),
      person({ details: details({ appointment_verification_statement_due_on: '2026-09-01' }) }),
      person({ kind: 'psc', startedOn: '2026-11-20' }),
      person({ kind: 'relevant_legal_entity', startedOn: '2026-11-20' }),
      person({ kind: 'psc', birth: null }),
    ].map((p) => identityStatusText(identityStatus(p, company, today)));
    expect(texts).toEqual([
      'verified 2 Mar 2026',
      'due 14 Dec 2026',
      'overdue since 1 Sep 2026',
      'due 4 Dec 2026 (14 days, derived)',
      'due 18 Dec 2026 (28 days, derived)',
      'not yet known',
    ]);
  });
});

describe('reading people from Companies House', () => {
  const officers: CompanyOfficer[] = parseOfficers({
    items: [
      { name: 'SMITH, Jane Anne', officer_role: 'director', appointed_on: '2015-01-01', date_of_birth: { month: '3', year: 1980 } },
      { name: 'BLOGGS, Joe', officer_role: 'secretary', appointed_on: '2015-01-01' },
      { name: 'OLD, Fred', officer_role: 'director', appointed_on: '2010-01-01', resigned_on: '2020-01-01' },
      {
        name: 'NEW, Nora',
        officer_role: 'director',
        appointed_on: '2026-01-05',
        identity_verification_details: { identity_verified_on: '2026-01-04', anti_money_laundering_supervisory_bodies: ['HMRC', 7] },
      },
    ],
  });
  const pscs: CompanyPsc[] = parsePscs({
    items: [
      {
        name: 'Mrs Jane Anne Smith',
        kind: 'individual-person-with-significant-control',
        notified_on: '2016-04-06',
        date_of_birth: { month: 3, year: 1980 },
      },
      {
        name: 'Mr Tom Smith',
        kind: 'individual-person-with-significant-control',
        notified_on: '2016-04-06',
        date_of_birth: { month: 5, year: 1950 },
      },
      {
        description: 'The company knows or has reasonable cause to believe that there is no registrable person',
        kind: 'persons-with-significant-control-statement',
      },
      { name: 'HOLDCO LTD', kind: 'corporate-entity-person-with-significant-control', notified_on: '2016-04-06' },
      { name: 'Mr Gone', kind: 'individual-person-with-significant-control', notified_on: '2016-04-06', ceased_on: '2020-01-01' },
    ],
  });

  it('parses identity_verification_details and the birth month; absent stays null ("not known yet")', () => {
    expect(officers[0]!.date_of_birth).toEqual({ month: 3, year: 1980 });
    expect(officers[0]!.identity_verification_details).toBeNull();
    expect(officers[3]!.identity_verification_details?.identity_verified_on).toBe('2026-01-04');
    expect(officers[3]!.identity_verification_details?.anti_money_laundering_supervisory_bodies).toEqual(['HMRC']);
  });

  it('directors and PSCs in order; secretaries, the resigned, the ceased and statements left out; a PSC who is a director is known', () => {
    const people = idvPeople(officers, pscs);
    expect(people.map((p) => [p.key, p.kind, p.alsoDirector])).toEqual([
      ['officer:director:SMITH, Jane Anne', 'director', false],
      ['officer:director:NEW, Nora', 'director', false],
      ['psc:Mrs Jane Anne Smith', 'psc', true],
      ['psc:Mr Tom Smith', 'psc', false],
      ['psc:HOLDCO LTD', 'relevant_legal_entity', false],
    ]);
    // Same names but another birth month: not the same person.
    expect(samePerson(officers[0]!, { ...pscs[0]!, date_of_birth: { month: 4, year: 1980 } })).toBe(false);
  });
});
