import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hashRecoveryCode,
  hotp,
  newRecoveryCodes,
  otpauthUri,
  totp,
  verifyTotp,
  type TotpAlgorithm,
} from '../src/domain/totp.js';

// RFC 4226 appendix D: the HOTP values of the secret "12345678901234567890" for counters 0 to 9.
const HOTP_SECRET = Buffer.from('12345678901234567890');
const HOTP_VALUES = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];

// RFC 6238 appendix B: 8-digit TOTP values, 30-second steps, one seed per algorithm.
const SEEDS: Record<TotpAlgorithm, Buffer> = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const RFC6238: [number, TotpAlgorithm, string][] = [
  [59, 'sha1', '94287082'],
  [59, 'sha256', '46119246'],
  [59, 'sha512', '90693936'],
  [1111111109, 'sha1', '07081804'],
  [1111111109, 'sha256', '68084774'],
  [1111111109, 'sha512', '25091201'],
  [1111111111, 'sha1', '14050471'],
  [1111111111, 'sha256', '67062674'],
  [1111111111, 'sha512', '99943326'],
  [1234567890, 'sha1', '89005924'],
  [1234567890, 'sha256', '91819424'],
  [1234567890, 'sha512', '93441116'],
  [2000000000, 'sha1', '69279037'],
  [2000000000, 'sha256', '90698825'],
  [2000000000, 'sha512', '38618901'],
  [20000000000, 'sha1', '65353130'],
  [20000000000, 'sha256', '77737706'],
  [20000000000, 'sha512', '47863826'],
];

describe('HOTP (RFC 4226 appendix D)', () => {
  it.each(HOTP_VALUES.map((v, i) => [i, v] as const))('counter %i gives %s', (counter, value) => {
    expect(hotp(HOTP_SECRET, counter)).toBe(value);
  });
});

describe('TOTP (RFC 6238 appendix B)', () => {
  it.each(RFC6238)('T=%i %s gives %s', (t, algorithm, value) => {
    expect(totp(SEEDS[algorithm], t, { digits: 8, algorithm })).toBe(value);
  });
});

describe('verifying a code', () => {
  const secret = SEEDS.sha1;
  const now = 1_700_000_000;
  it('takes the current code and its neighbours (one step of drift), nothing further', () => {
    expect(verifyTotp(secret, totp(secret, now), now, null)).toBe(Math.floor(now / 30));
    expect(verifyTotp(secret, totp(secret, now - 30), now, null)).toBe(Math.floor(now / 30) - 1);
    expect(verifyTotp(secret, totp(secret, now + 30), now, null)).toBe(Math.floor(now / 30) + 1);
    expect(verifyTotp(secret, totp(secret, now - 90), now, null)).toBeNull();
    expect(verifyTotp(secret, '12345', now, null)).toBeNull();
    expect(verifyTotp(secret, 'abcdef', now, null)).toBeNull();
  });
  it('refuses the same code a second time within its window, and any older one', () => {
    const code = totp(secret, now);
    const step = verifyTotp(secret, code, now, null);
    expect(step).not.toBeNull();
    expect(verifyTotp(secret, code, now, step)).toBeNull();
    expect(verifyTotp(secret, code, now + 20, step)).toBeNull();
    expect(verifyTotp(secret, totp(secret, now - 30), now, step)).toBeNull();
    // the next step's code still works
    expect(verifyTotp(secret, totp(secret, now + 30), now + 30, step)).toBe(step! + 1);
  });
});

describe('secrets and recovery codes', () => {
  it('base32 round-trips (RFC 4648 test vector "foobar" → MZXW6YTBOI)', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('mzxw 6ytb oi======')?.toString()).toBe('foobar');
    expect(base32Decode('not base32!')).toBeNull();
  });
  it('the otpauth URI carries the issuer, the account and the secret', () => {
    const text = otpauthUri({ issuer: 'Test Practice', account: 'ann@x.co.uk', secret: Buffer.from('foobar') });
    expect(text.startsWith('otpauth://totp/Test%20Practice%3Aann%40x.co.uk?')).toBe(true);
    const uri = new URL(text);
    expect(uri.searchParams.get('secret')).toBe('MZXW6YTBOI');
    expect(uri.searchParams.get('issuer')).toBe('Test Practice');
  });
  it('ten distinct recovery codes; the hash ignores case, spaces and dashes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(hashRecoveryCode(codes[0]!)).toBe(hashRecoveryCode(` ${codes[0]!.toUpperCase().replace(/-/g, ' ')} `));
    expect(hashRecoveryCode(codes[0]!)).not.toBe(hashRecoveryCode(codes[1]!));
  });
});
