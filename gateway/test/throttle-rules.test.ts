import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_RULE,
  ADDRESS_RULE,
  blockingDelay,
  delayMinutes,
  startsDelay,
  waitOf,
  type ThrottleRow,
} from '../../services/identity/src/domain/throttle.js';

// identity's pure throttle rules (domain/throttle.ts); the attacks against the real app are in sign-in-attacks.test.ts.

describe('delay lengths double from 1 minute and stop at an hour', () => {
  const cases: Array<[number, number]> = [
    [0, 1],
    [1, 2],
    [2, 4],
    [3, 8],
    [4, 16],
    [5, 32],
    [6, 60],
    [7, 60],
    [40, 60],
  ];
  for (const [level, minutes] of cases) it(`level ${level}: ${minutes} min`, () => expect(delayMinutes(ACCOUNT_RULE, level)).toBe(minutes));
});

describe('which attempt starts a delay', () => {
  it('every fifth for an account, every thirtieth for an address', () => {
    const accountStarts = Array.from({ length: 20 }, (_, i) => i + 1).filter((n) => startsDelay(ACCOUNT_RULE, n));
    expect(accountStarts).toEqual([5, 10, 15, 20]);
    const addressStarts = Array.from({ length: 90 }, (_, i) => i + 1).filter((n) => startsDelay(ADDRESS_RULE, n));
    expect(addressStarts).toEqual([30, 60, 90]);
    expect(startsDelay(ACCOUNT_RULE, 0)).toBe(false);
  });
});

describe('what blocks an attempt', () => {
  const now = new Date('2026-03-05T10:00:00Z');
  const row = (delayUntil: string | null): ThrottleRow => ({
    scope: 'user',
    key: 'k',
    failures: 5,
    delayLevel: 1,
    delayUntil: delayUntil ? new Date(delayUntil) : null,
  });
  it("the account's running delay, unless the address is known to the account", () => {
    expect(blockingDelay({ account: row('2026-03-05T10:01:00Z'), address: null, knownAddress: false }, now)).toEqual(
      new Date('2026-03-05T10:01:00Z'),
    );
    expect(blockingDelay({ account: row('2026-03-05T10:01:00Z'), address: null, knownAddress: true }, now)).toBeNull();
  });
  it("an ended delay blocks nothing; the address's own delay blocks even a known address; the longer wins", () => {
    expect(blockingDelay({ account: row('2026-03-05T09:59:59Z'), address: null, knownAddress: false }, now)).toBeNull();
    expect(blockingDelay({ account: null, address: row('2026-03-05T10:04:00Z'), knownAddress: true }, now)).toEqual(
      new Date('2026-03-05T10:04:00Z'),
    );
    expect(blockingDelay({ account: row('2026-03-05T10:08:00Z'), address: row('2026-03-05T10:04:00Z'), knownAddress: false }, now)).toEqual(
      new Date('2026-03-05T10:08:00Z'),
    );
  });
  it('the wait is told in whole minutes (rounded up) and seconds', () => {
    expect(waitOf(new Date('2026-03-05T10:01:00Z'), now)).toEqual({ minutes: 1, seconds: 60 });
    expect(waitOf(new Date('2026-03-05T10:01:01Z'), now)).toEqual({ minutes: 2, seconds: 61 });
    expect(waitOf(new Date('2026-03-05T10:00:00.200Z'), now)).toEqual({ minutes: 1, seconds: 1 });
  });
});
