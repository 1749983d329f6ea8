import { describe, expect, it } from 'vitest';
import { govClientMultiFactor, multiFactorTimestamp } from '../src/identity/fraud-headers.js';

// HMRC fraud prevention headers, Gov-Client-Multi-Factor (issue 32): the specification's own example
// is `type=TOTP&timestamp=2017-04-21T13%3A23Z&unique-reference=fc4b5fd6…`.
const REF = 'fc4b5fd6816f75a7c81fc8eaa9499d6a299bd803397166e8c4cf9280b801d62c';

describe('Gov-Client-Multi-Factor', () => {
  it("gives HMRC's example for a TOTP used at 13:23 UTC on 21 April 2017", () => {
    const at = Date.UTC(2017, 3, 21, 13, 23, 41) / 1000;
    expect(govClientMultiFactor([{ type: 'TOTP', at, reference: REF }])).toBe(
      `type=TOTP&timestamp=2017-04-21T13%3A23Z&unique-reference=${REF}`,
    );
  });
  it.each([
    // British Summer Time does not matter: the timestamp is UTC (14:05 in London on 1 July 2026 is 13:05Z).
    [Date.UTC(2026, 6, 1, 13, 5, 59) / 1000, '2026-07-01T13:05Z'],
    [Date.UTC(2026, 11, 31, 23, 59, 0) / 1000, '2026-12-31T23:59Z'],
  ])('timestamp of %i is %s (to the minute, UTC)', (at, text) => {
    expect(multiFactorTimestamp(at)).toBe(text);
  });
  it('several factors are comma-separated; none gives an empty value', () => {
    const at = Date.UTC(2026, 10, 26, 9, 0) / 1000;
    expect(
      govClientMultiFactor([
        { type: 'TOTP', at, reference: 'a' },
        { type: 'OTHER', at, reference: 'b' },
      ]),
    ).toBe('type=TOTP&timestamp=2026-11-26T09%3A00Z&unique-reference=a,type=OTHER&timestamp=2026-11-26T09%3A00Z&unique-reference=b');
    expect(govClientMultiFactor([])).toBe('');
  });
});
