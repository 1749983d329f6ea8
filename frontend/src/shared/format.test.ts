import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatGBP } from '@countinghouse/proto';

describe('en-GB formatting', () => {
  it('formats money as GBP', () => {
    expect(formatGBP(1234.5)).toBe('£1,234.50');
    expect(formatGBP('40')).toBe('£40.00');
    expect(formatGBP(null)).toBe('£0.00');
  });

  it('formats dates as dd Mon yyyy', () => {
    expect(formatDate('2026-03-05')).toBe('05 Mar 2026');
    expect(formatDate('2026-09-01T12:00:00Z')).toBe('01 Sep 2026');
    expect(formatDate('not a date')).toBe('');
  });

  it('formats date-times in UK time', () => {
    // 13:30 UTC in British Summer Time is 14:30 in London.
    expect(formatDateTime('2026-07-01T13:30:00Z')).toBe('01 Jul 2026, 14:30');
  });
});
