import { describe, expect, it } from 'vitest';
import { cleanDisplayName, isSafeLine, isSafeText } from '../src/text.js';

describe('cleanDisplayName', () => {
  it.each([
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['a\u2066b\u2069c\u200E\u200F\u061C', 'abc'],
    ['tab\there\u0000\u0085', 'tabhere'],
    ['Rechnung März 2026.pdf', 'Rechnung März 2026.pdf'],
    ['שלום.pdf', 'שלום.pdf'],
  ])('%j -> %j', (input, out) => {
    expect(cleanDisplayName(input)).toBe(out);
  });
});

describe('isSafeLine / isSafeText', () => {
  it('agree with the patterns', () => {
    expect(isSafeLine('plain text £')).toBe(true);
    expect(isSafeLine('a\tb')).toBe(false);
    expect(isSafeText('a\tb\r\nc')).toBe(true);
    expect(isSafeText('a\u0000')).toBe(false);
  });
});
