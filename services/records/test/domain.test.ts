import { foldName } from '@countinghouse/proto';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, hashEntry, verifyChain, type ChainedContent } from '../src/domain/chain.js';
import { addYears, decideExpired, effectiveRules, ruleProblem, type ClientState } from '../src/domain/retention.js';
import { buildZip, dueOn, readZip, safePath } from '../src/domain/subject-access.js';
import { clientChangeSummary, clientFieldHashes, describe as describeEvent } from '../src/domain/summary.js';

describe('the subject-access due date: one month from the request (UK GDPR Art. 12(3))', () => {
  it.each([
    ['a mid-month request: the same day next month', '2026-11-26', '2026-12-26'],
    ['31 Jan: February has no 31st, so its last day', '2027-01-31', '2027-02-28'],
    ['31 Jan of a leap year: 29 Feb', '2028-01-31', '2028-02-29'],
    ['30 Jan of a common year: 28 Feb', '2026-01-30', '2026-02-28'],
    ['31 Mar: 30 Apr', '2026-03-31', '2026-04-30'],
    ['31 Dec: into the new year', '2026-12-31', '2027-01-31'],
    ['28 Feb: 28 Mar (not the month end)', '2026-02-28', '2026-03-28'],
  ])('%s: %s → %s', (_label, requested, due) => {
    expect(dueOn(requested)).toBe(due);
  });
});

describe('retention (MLR 2017 reg. 40: CDD 5 years after the relationship ends; records and letters 6 years)', () => {
  const rules = effectiveRules([]);
  const client = (o: Partial<ClientState>): ClientState => ({
    clientId: 'c',
    companyName: 'C Ltd',
    relationshipEndedOn: null,
    legalHold: false,
    ...o,
  });
  const types = (c: ClientState, today: string) =>
    decideExpired(rules, [c], today)
      .map((d) => d.recordType)
      .sort();

  // The record-date types (ACSP verifications, audit entries) are asked of every client not under a hold:
  // the records service then keeps only those with something that old (retention.ts, refine).
  const R = ['acsp_verifications', 'audit_entries'];
  it.each([
    [
      'left 2020-01-31: everything goes in 2026',
      client({ relationshipEndedOn: '2020-01-31' }),
      '2026-11-26',
      ['acsp_verifications', 'aml_file', 'audit_entries', 'documents', 'engagement_letters'],
    ],
    ['left 2020-01-31, under a legal hold: kept', client({ relationshipEndedOn: '2020-01-31', legalHold: true }), '2026-11-26', []],
    ['left 2023-06-30: kept', client({ relationshipEndedOn: '2023-06-30' }), '2026-11-26', R],
    ['still a client: kept', client({}), '2026-11-26', R],
    [
      'left 2021-01-31: the AML file goes on 2026-01-31, the rest waits',
      client({ relationshipEndedOn: '2021-01-31' }),
      '2026-01-31',
      ['acsp_verifications', 'aml_file', 'audit_entries'],
    ],
    ['left 2021-01-31: the day before the fifth anniversary keeps all', client({ relationshipEndedOn: '2021-01-31' }), '2026-01-30', R],
    [
      'left 2020-01-31: six years run to 2026-01-31',
      client({ relationshipEndedOn: '2020-01-31' }),
      '2026-01-30',
      ['acsp_verifications', 'aml_file', 'audit_entries'],
    ],
  ])('%s', (_label, c, today, expected) => {
    expect(types(c, today)).toEqual(expected);
  });

  it('a relationship ending on 29 Feb is counted to 28 Feb in a common year', () => {
    expect(addYears('2024-02-29', 5)).toBe('2029-02-28');
    expect(addYears('2024-02-29', 4)).toBe('2028-02-29');
    expect(addYears('2020-01-31', 6)).toBe('2026-01-31');
  });

  it('a rule counted from the record date erases records dated before today less the period', () => {
    const d = decideExpired([{ recordType: 'documents', years: 6, trigger: 'record_date' }], [client({})], '2026-11-26');
    expect(d).toMatchObject([{ recordType: 'documents', recordedBefore: '2020-11-26' }]);
  });

  it.each([
    [
      'ACSP verification records: 7 years from the verification (Companies House ACSP conditions)',
      'acsp_verifications',
      '2026-11-26',
      '2019-11-26',
    ],
    ['on 29 Feb 2028, ACSP records dated before 28 Feb 2021 go', 'acsp_verifications', '2028-02-29', '2021-02-28'],
    ['audit entries: 6 years from the entry', 'audit_entries', '2026-11-26', '2020-11-26'],
  ] as const)('%s', (_label, type, today, before) => {
    const d = decideExpired(rules, [client({})], today).find((x) => x.recordType === type);
    expect(d?.recordedBefore).toBe(before);
  });

  it('an administrator cannot shorten the ACSP or audit periods; a longer one, or one from the relationship end, is allowed', () => {
    expect(ruleProblem('acsp_verifications', 6, 'record_date')).toBe('ACSP identity verification records must be kept at least 7 years.');
    expect(ruleProblem('audit_entries', 5, 'record_date')).toBe('Audit trail entries must be kept at least 6 years.');
    expect(ruleProblem('acsp_verifications', 7, 'relationship_end')).toBeNull();
    expect(ruleProblem('audit_entries', 10, 'record_date')).toBeNull();
  });

  it('an administrator cannot go below the legal minimum or count from an earlier trigger', () => {
    expect(ruleProblem('aml_file', 4, 'relationship_end')).toBe('AML file (customer due diligence) must be kept at least 5 years.');
    expect(ruleProblem('engagement_letters', 6, 'record_date')).toBe(
      'Engagement letters must be kept from the end of the client relationship.',
    );
    expect(ruleProblem('documents', 10, 'relationship_end')).toBeNull();
  });
});

describe('the hash chain', () => {
  const entry = (seq: number, summary: string): ChainedContent => ({
    chain: 'c1',
    seq,
    clientId: 'c1',
    eventId: `00000000-0000-0000-0000-00000000000${seq}`,
    occurredAt: '2026-11-26T10:00:00.000Z',
    actorKind: 'user',
    actorId: 'u1',
    actorName: 'Ann',
    ip: '203.0.113.7',
    action: 'crm.client_upserted',
    summary,
  });
  function chain(...summaries: string[]) {
    let prev = GENESIS_HASH;
    return summaries.map((s, i) => {
      const e = entry(i + 1, s);
      const row = { ...e, prevHash: prev, hash: hashEntry(prev, e) };
      prev = row.hash;
      return row;
    });
  }

  it('is intact as written; an edited field, a removed entry or a swapped order is found', () => {
    const rows = chain('Client record created', 'Changed: contact phone', 'Viewed the AML file');
    expect(verifyChain(rows)).toEqual({ intact: true, brokenAtSeq: null });
    expect(verifyChain(rows.map((r) => (r.seq === 2 ? { ...r, ip: '198.51.100.1' } : r)))).toEqual({ intact: false, brokenAtSeq: 2 });
    expect(verifyChain([rows[0]!, rows[2]!])).toEqual({ intact: false, brokenAtSeq: 3 });
    expect(verifyChain([rows[1]!, rows[0]!, rows[2]!])).toMatchObject({ intact: false });
  });

  it('after retention removed its beginning, the rest checks against the checkpoint; removing more or altering is found', () => {
    const rows = chain('a', 'b', 'c', 'd');
    const cp = { seq: 2, hash: rows[1]!.hash };
    expect(verifyChain(rows.slice(2), cp)).toEqual({ intact: true, brokenAtSeq: null });
    // without the checkpoint a chain must begin at seq 1 after the genesis hash
    expect(verifyChain(rows.slice(2))).toEqual({ intact: false, brokenAtSeq: 3 });
    // one more entry removed behind the run's back
    expect(verifyChain(rows.slice(3), cp)).toEqual({ intact: false, brokenAtSeq: 4 });
    // an altered remaining entry
    expect(verifyChain([rows[2]!, { ...rows[3]!, summary: 'x' }], cp)).toEqual({ intact: false, brokenAtSeq: 4 });
    // a checkpoint moved forward to hide the first remaining entry
    expect(verifyChain(rows.slice(2), { seq: 3, hash: rows[2]!.hash })).toEqual({ intact: false, brokenAtSeq: 3 });
    // everything removed: an empty chain behind its checkpoint is intact
    expect(verifyChain([], { seq: 4, hash: rows[3]!.hash })).toEqual({ intact: true, brokenAtSeq: null });
  });

  it('names changed client fields without keeping their values', () => {
    const base = {
      clientId: 'c1',
      userId: null,
      companyName: 'A Ltd',
      contactName: 'Ann',
      contactEmail: 'a@x.co.uk',
      contactPhone: '0100',
      packageName: null,
      monthlyFee: 0,
      subscriptionStatus: 'active',
      assignedAccountantId: null,
    };
    const before = clientFieldHashes(base);
    expect(clientChangeSummary(new Map(), before)).toBe('Client record created');
    expect(clientChangeSummary(before, clientFieldHashes({ ...base, contactPhone: '0200' }))).toBe('Changed: contact phone');
    expect(clientChangeSummary(before, clientFieldHashes(base))).toBeNull();
    expect([...before.values()].join()).not.toContain('0100');
  });
});

describe('people are matched by name as people write them, within one client', () => {
  it.each([
    ['SMITH, Jane', 'Jane Smith', true],
    ['Mrs Jane  SMITH', 'smith jane mrs', true],
    ['Zoë Brontë', 'ZOE BRONTE', true],
    ['SMITH, Jane', 'SMITH, John', false],
    ['Jane Smith', 'Jane Smithson', false],
    ['Jane Smith', 'Jane Anne Smith', false],
  ])('%s ~ %s: %s', (a, b, same) => {
    expect(foldName(a) === foldName(b)).toBe(same);
  });
});

describe('the archive', () => {
  it('a ZIP that reads back, with safe paths and no duplicate names', () => {
    const zip = buildZip([
      { path: 'a/b.txt', content: Buffer.from('hello') },
      { path: '../../etc/passwd', content: Buffer.from('x') },
      { path: 'a/b.txt', content: Buffer.from('again') },
    ]);
    const files = readZip(zip);
    expect([...files.keys()]).toEqual(['a/b.txt', 'etc/passwd', 'a/b-2.txt']);
    expect(files.get('a/b-2.txt')!.toString()).toBe('again');
    expect(safePath('/x/../y z/ü.pdf')).toBe('x/y z/_.pdf');
  });
});

describe("the audit trail's line for a second factor turned off (issue 32)", () => {
  const reset = (data: { userId: string; account?: 'admin_panel' }) =>
    describeEvent({ type: 'identity.second_factor_reset', data } as unknown as Parameters<typeof describeEvent>[0]);
  it.each([
    [{ userId: 'u-1' }, 'Two-factor sign-in reset for user u-1'],
    [{ userId: 'a-1', account: 'admin_panel' as const }, 'Two-factor sign-in reset for admin panel account a-1'],
  ])('%o', (data, summary) => {
    expect(reset(data)).toEqual({ clientId: null, summary });
  });
});
