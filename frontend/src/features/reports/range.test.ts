import { describe, expect, it } from 'vitest';
import { reportPresets } from './range';

const day = (d: { format: (f: string) => string }) => d.format('YYYY-MM-DD');
const at = (clock: { now: Date }) => reportPresets(() => clock.now);
const preset = (presets: ReturnType<typeof reportPresets>, label: string) =>
  presets
    .find((p) => p.label === label)!
    .value()
    .map(day);

describe('the date range presets', () => {
  it('are worked out when used, so a page left open over midnight does not go stale', () => {
    // 23:30 in London on 31 December 2026 (GMT), then 00:30 on 1 January 2027.
    const clock = { now: new Date('2026-12-31T23:30:00Z') };
    const presets = at(clock);
    expect(preset(presets, 'This year')).toEqual(['2026-01-01', '2026-12-31']);
    expect(preset(presets, 'Last year')).toEqual(['2025-01-01', '2025-12-31']);
    clock.now = new Date('2027-01-01T00:30:00Z');
    expect(preset(presets, 'This year')).toEqual(['2027-01-01', '2027-01-01']);
    expect(preset(presets, 'Last year')).toEqual(['2026-01-01', '2026-12-31']);
    expect(preset(presets, 'Last 12 months')).toEqual(['2026-02-01', '2027-01-01']);
  });

  it.each([
    // London's date, not UTC's: 23:30 UTC on 30 June is 00:30 on 1 July in British Summer Time.
    ['2026-06-30T23:30:00Z', 'Last 3 months', ['2026-05-01', '2026-07-01']],
    ['2026-06-30T23:30:00Z', 'Last 12 months', ['2025-08-01', '2026-07-01']],
    ['2026-03-05T12:00:00Z', 'Last 3 months', ['2026-01-01', '2026-03-05']],
    ['2026-03-05T12:00:00Z', 'Last 5 years', ['2021-03-05', '2026-03-05']],
    // proto's addYears: 29 Feb less five years is 1 Mar (no 29 Feb in 2023)
    ['2028-02-29T12:00:00Z', 'Last 5 years', ['2023-03-01', '2028-02-29']],
  ])('at %s, %s is %j', (now, label, expected) => {
    expect(preset(at({ now: new Date(now) }), label)).toEqual(expected);
  });
});
