import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CompaniesHouseClient,
  CompaniesHouseError,
  parseCompanyProfile,
  retryAfterMs,
  RATE_LIMIT,
} from '../src/adapters/companies-house/client.js';
import { acmeCompany, startFakeCompaniesHouse, type FakeCompaniesHouse } from './fake-companies-house.js';

let ch: FakeCompaniesHouse;
beforeAll(async () => {
  ch = await startFakeCompaniesHouse('right-key');
  ch.companies.set('09876543', acmeCompany());
});
afterAll(async () => ch?.close());

const client = (o: Partial<ConstructorParameters<typeof CompaniesHouseClient>[0]> = {}) =>
  new CompaniesHouseClient({ apiKey: 'right-key', baseUrl: ch.url, sleep: async () => {}, ...o });

describe('Companies House client against a local server', () => {
  it('reads the profile: accounting reference date strings become numbers; the trusted due dates', async () => {
    const p = await client().companyProfile('09876543');
    expect(p).toMatchObject({
      companyName: 'ACME WIDGETS LIMITED',
      companyStatus: 'active',
      ard: { day: 31, month: 3 },
      nextAccountsPeriodEnd: '2026-03-31',
      nextAccountsDueOn: '2026-12-31',
      confirmationNextDue: '2026-08-14',
      registeredOffice: '1 Ledger Lane, London, EC1A 1AA, England',
      sicCodes: ['62020'],
    });
  });

  it('numbers are accepted too, and next_accounts.due_on wins over the deprecated next_due', () => {
    const p = parseCompanyProfile({
      company_number: '1',
      accounts: {
        accounting_reference_date: { day: 30, month: 6 },
        next_due: '2020-01-01',
        next_accounts: { due_on: '2026-03-31', period_end_on: '2025-06-30' },
      },
    });
    expect(p.ard).toEqual({ day: 30, month: 6 });
    expect(p.nextAccountsDueOn).toBe('2026-03-31');
  });

  it('officers and PSCs; a company without PSCs answers 404, read as none', async () => {
    expect((await client().officers('09876543')).map((o) => [o.name, o.resigned_on])).toEqual([
      ['WIDGET, Alice Mary', null],
      ['GEAR, Bob', '2020-06-30'],
    ]);
    ch.companies.set('01111111', { ...acmeCompany({ company_number: '01111111' }), pscs: [] });
    expect(await client().pscs('01111111')).toEqual([]);
  });

  it('401 for a wrong key, 404 for an unknown company', async () => {
    await expect(client({ apiKey: 'wrong' }).companyProfile('09876543')).rejects.toMatchObject({ kind: 'unauthorised' });
    await expect(client().companyProfile('00000000')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('429: waits for Retry-After, then retries; gives up when the wait is too long', async () => {
    const waits: number[] = [];
    ch.throttleNext(2, 3);
    const p = await client({ sleep: async (ms) => void waits.push(ms) }).companyProfile('09876543');
    expect(p.companyNumber).toBe('09876543');
    expect(waits).toEqual([3000, 3000]);
    ch.throttleNext(1, 120);
    await expect(client({ maxRetryWaitMs: 5000 }).companyProfile('09876543')).rejects.toBeInstanceOf(CompaniesHouseError);
    ch.throttleNext(0, 0);
  });

  it('keeps itself under 600 requests per 5 minutes', async () => {
    let now = 1_000_000;
    const waits: number[] = [];
    const c = client({
      maxRetryWaitMs: 10 * 60_000,
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
      fetchImpl: (async () => new Response(JSON.stringify({ items: [] }), { status: 200 })) as typeof fetch,
    });
    for (let i = 0; i < RATE_LIMIT.requests; i++) await c.officers('09876543');
    expect(waits).toEqual([]);
    now += 1000;
    await c.officers('09876543');
    expect(waits).toEqual([RATE_LIMIT.windowMs - 1000]);
    // An interactive caller does not wait minutes: it is told at once.
    const impatient = client({ now: () => now, maxRetryWaitMs: 5000, fetchImpl: (async () => new Response('{}')) as typeof fetch });
    for (let i = 0; i < RATE_LIMIT.requests; i++) await impatient.officers('1');
    await expect(impatient.officers('1')).rejects.toMatchObject({ kind: 'rate_limited' });
  });

  it('Retry-After as seconds, as a date, or X-Ratelimit-Reset', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Mon, 23 Nov 2026 10:00:30 GMT' }), now)).toBe(30_000);
    expect(retryAfterMs(new Headers({ 'x-ratelimit-reset': String(now / 1000 + 12) }), now)).toBe(12_000);
  });
});
