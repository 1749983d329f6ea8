import type { RiskAnswers } from '@countinghouse/proto';
import { describe, expect, it } from 'vitest';
import { ownershipBandOf, chPeople } from '../src/domain/companies-house.js';
import { mergeChPeople, submitBlocker } from '../src/domain/people.js';
import { retentionVerdict } from '../src/domain/retention.js';
import { nextReviewOn, reviewDueFrom } from '../src/domain/review.js';
import { assessRisk } from '../src/domain/risk.js';
import { amlStatus } from '../src/domain/status.js';

const plain: RiskAnswers = {
  sector: 'standard',
  cash_intensive: false,
  jurisdiction: 'uk',
  pep: false,
  complex_structure: false,
  non_face_to_face: false,
  source_of_funds: 'clear',
};

describe('risk scoring (MLR 2017 reg. 28 standard, reg. 33 enhanced, reg. 35 PEPs, reg. 37 simplified)', () => {
  it.each([
    ['nothing of note', {}, 'low', 'simplified', 3],
    ['not met face to face', { non_face_to_face: true }, 'medium', 'standard', 2],
    ['elevated sector and abroad', { sector: 'elevated', jurisdiction: 'abroad' }, 'medium', 'standard', 2],
    ['complex structure and not met', { complex_structure: true, non_face_to_face: true }, 'high', 'enhanced', 1],
    ['one cash-intensive answer', { cash_intensive: true }, 'high', 'enhanced', 1],
    ['a politically exposed person (reg. 35)', { pep: true }, 'high', 'enhanced', 1],
    ['a high-risk third country (reg. 33(1)(b))', { jurisdiction: 'high_risk_third_country' }, 'high', 'enhanced', 1],
    ['a high-risk sector alone', { sector: 'high' }, 'high', 'enhanced', 1],
    ['unclear source of funds', { source_of_funds: 'unclear' }, 'medium', 'standard', 2],
  ] as const)('%s: %s risk, %s due diligence, review in %i years', (_name, answers, level, dd, years) => {
    const r = assessRisk({ ...plain, ...answers });
    expect(r).toMatchObject({ level, due_diligence: dd, review_years: years });
    if (level !== 'low') expect(r.reasons.length).toBeGreaterThan(0);
  });
});

describe('review dates: 3 years low, 2 medium, 1 high, from approval', () => {
  it.each([
    ['2026-11-23', 'low', '2029-11-23'],
    ['2026-11-23', 'medium', '2028-11-23'],
    ['2026-11-23', 'high', '2027-11-23'],
    // 29 Feb approvals are reviewed on 28 Feb (never later than the anniversary)
    ['2028-02-29', 'high', '2029-02-28'],
    ['2028-02-29', 'low', '2031-02-28'],
    ['2027-12-31', 'medium', '2029-12-31'],
  ] as const)('approved %s at %s risk: review on %s', (approved, level, review) => {
    expect(nextReviewOn(approved, level)).toBe(review);
  });
  it('the reminder goes out 30 days before', () => {
    expect(reviewDueFrom('2027-11-23')).toBe('2027-10-24');
    expect(reviewDueFrom('2028-03-01')).toBe('2028-01-31');
  });
});

describe('retention: five years beginning with the day the relationship ends (reg. 40(3)-(4))', () => {
  it.each([
    [null, '2040-01-01', false, null],
    ['2025-01-01', '2029-12-31', false, '2029-12-31'],
    ['2025-01-01', '2030-01-01', true, '2029-12-31'],
    ['2024-02-29', '2029-02-28', false, '2029-02-28'],
    ['2024-02-29', '2029-03-01', true, '2029-02-28'],
    ['2026-06-15', '2026-11-23', false, '2031-06-14'],
  ] as const)('ended %s, today %s: deletable %s (kept until %s)', (ended, today, deletable, keepUntil) => {
    const v = retentionVerdict(ended, today);
    expect(v.deletable).toBe(deletable);
    expect(v.keepUntil).toBe(keepUntil);
  });
});

describe('status', () => {
  const f = (o: Partial<Parameters<typeof amlStatus>[0]>) => ({
    latestState: 'draft' as const,
    approvedNextReviewOn: null,
    started: false,
    ...o,
  });
  it.each([
    [f({}), '2026-11-23', 'not_started'],
    [f({ started: true }), '2026-11-23', 'in_progress'],
    [f({ started: true, latestState: 'awaiting_approval' }), '2026-11-23', 'awaiting_approval'],
    [f({ latestState: 'approved', approvedNextReviewOn: '2027-11-23' }), '2026-11-23', 'approved'],
    [f({ latestState: 'approved', approvedNextReviewOn: '2027-11-23' }), '2027-10-23', 'approved'],
    [f({ latestState: 'approved', approvedNextReviewOn: '2027-11-23' }), '2027-10-24', 'review_due'],
    [f({ latestState: 'approved', approvedNextReviewOn: '2027-11-23' }), '2027-11-23', 'review_due'],
    [f({ latestState: 'approved', approvedNextReviewOn: '2027-11-23' }), '2027-11-24', 'expired'],
    // a version 2 being drafted leaves version 1 in force
    [f({ latestState: 'draft', approvedNextReviewOn: '2027-11-23', started: true }), '2026-12-01', 'approved'],
    [f({ latestState: 'awaiting_approval', approvedNextReviewOn: '2027-11-23', started: true }), '2027-12-01', 'awaiting_approval'],
  ] as const)('%o on %s: %s', (facts, today, status) => {
    expect(amlStatus(facts, today)).toBe(status);
  });
});

describe('people from Companies House', () => {
  it.each([
    [['ownership-of-shares-25-to-50-percent'], '25_to_50'],
    [['ownership-of-shares-75-to-100-percent', 'voting-rights-75-to-100-percent'], '75_or_more'],
    [['voting-rights-50-to-75-percent', 'ownership-of-shares-25-to-50-percent'], '50_to_75'],
    [['right-to-appoint-and-remove-directors'], 'none'],
  ] as const)('%o is band %s', (natures, band) => expect(ownershipBandOf(natures)).toBe(band));

  const officers = [
    { name: 'SMITH, Jane', officer_role: 'director', appointed_on: '2020-01-01', resigned_on: null },
    { name: 'JONES, Old', officer_role: 'director', appointed_on: '2015-01-01', resigned_on: '2019-01-01' },
    { name: 'Acme Secretarial Ltd', officer_role: 'corporate-secretary', appointed_on: null, resigned_on: null },
  ];
  const pscs = [
    {
      name: 'Mrs Jane Smith',
      kind: 'individual-person-with-significant-control',
      notified_on: null,
      ceased_on: null,
      natures_of_control: ['ownership-of-shares-75-to-100-percent'],
    },
  ];
  let n = 0;
  const id = () => `id-${++n}`;

  it('adds current directors, secretaries and PSCs; leaves out those who had resigned before', () => {
    const m = mergeChPeople([], chPeople(officers, pscs), id);
    expect(m.people.map((p) => [p.name, p.role, p.ownership_band, p.source])).toEqual([
      ['SMITH, Jane', 'director', 'none', 'companies_house'],
      ['Acme Secretarial Ltd', 'secretary', 'none', 'companies_house'],
      ['Mrs Jane Smith', 'psc', '75_or_more', 'companies_house'],
    ]);
    expect(m.added).toHaveLength(3);
  });

  it('keeps what the practice typed and marks a resignation; a second merge changes nothing', () => {
    const first = mergeChPeople([], chPeople(officers, pscs), id).people.map((p) =>
      p.name === 'SMITH, Jane' ? { ...p, address: '1 High St' } : p,
    );
    const resigned = officers.map((o) => (o.name === 'SMITH, Jane' ? { ...o, resigned_on: '2026-10-01' } : o));
    const m = mergeChPeople(first, chPeople(resigned, pscs), id);
    const jane = m.people.find((p) => p.name === 'SMITH, Jane')!;
    expect(jane).toMatchObject({ address: '1 High St', ceased_on: '2026-10-01' });
    expect(m.ceased).toEqual(['SMITH, Jane']);
    const again = mergeChPeople(m.people, chPeople(resigned, pscs), id);
    expect(again.added).toEqual([]);
    expect(again.ceased).toEqual([]);
    expect(again.people).toEqual(m.people);
  });

  it('a file goes for approval only with people, evidence for each current one, and the risk answered', () => {
    const people = mergeChPeople([], chPeople(officers.slice(0, 1), []), id).people;
    expect(submitBlocker([], true)).toEqual({ kind: 'people' });
    expect(submitBlocker(people, true)).toEqual({ kind: 'evidence', name: 'SMITH, Jane' });
    const withEvidence = people.map((p) => ({
      ...p,
      evidence: [
        {
          id: 'e',
          document_id: 'd',
          method: 'video' as const,
          checked_on: '2026-11-23',
          checked_by_id: 'u',
          checked_by_name: 'U',
          added_at: '',
        },
      ],
    }));
    expect(submitBlocker(withEvidence, false)).toEqual({ kind: 'risk' });
    expect(submitBlocker(withEvidence, true)).toBeNull();
  });
});
