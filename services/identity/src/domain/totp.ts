import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) with node:crypto only, and the
 * recovery codes beside them. Pure functions: the caller keeps the secret, the last step used (so a
 * code is refused if replayed within its window) and the recovery codes' hashes.
 */

export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

/** What every authenticator app reads by default: SHA-1, 6 digits, 30-second steps. */
export const TOTP_DEFAULTS: { algorithm: TotpAlgorithm; digits: number; stepSeconds: number } = {
  algorithm: 'sha1',
  digits: 6,
  stepSeconds: 30,
};

/** Steps either side of now a code may come from (a phone's clock a little off): RFC 6238 section 5.2. */
export const TOTP_DRIFT_STEPS = 1;

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding, as otpauth:// URIs carry secrets. */
export function base32Encode(buf: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of buf) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

/** Decode base32 (case, spaces and padding ignored); null when a character is not base32. */
export function base32Decode(text: string): Buffer | null {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const i = B32.indexOf(ch);
    if (i < 0) return null;
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 HOTP: HMAC of the 8-byte counter, dynamic truncation, `digits` decimal digits. */
export function hotp(secret: Buffer, counter: number, digits = 6, algorithm: TotpAlgorithm = 'sha1'): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, secret).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const bin = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(bin % 10 ** digits).padStart(digits, '0');
}

/** The time step of an instant (seconds since the epoch). */
export function totpStep(unixSeconds: number, stepSeconds = TOTP_DEFAULTS.stepSeconds): number {
  return Math.floor(unixSeconds / stepSeconds);
}

/** RFC 6238 TOTP at an instant (seconds since the epoch). */
export function totp(
  secret: Buffer,
  unixSeconds: number,
  o: { digits?: number; algorithm?: TotpAlgorithm; stepSeconds?: number } = {},
): string {
  return hotp(secret, totpStep(unixSeconds, o.stepSeconds), o.digits ?? TOTP_DEFAULTS.digits, o.algorithm ?? TOTP_DEFAULTS.algorithm);
}

function sameDigits(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Check a code at `unixSeconds`: the step it matches (within TOTP_DRIFT_STEPS either side), or null.
 * A step at or before `lastUsedStep` is refused, so a code (or an older one) cannot be used twice
 * within its window; the caller stores the returned step as the new `lastUsedStep`.
 */
export function verifyTotp(
  secret: Buffer,
  code: string,
  unixSeconds: number,
  lastUsedStep: number | null,
  o: { digits?: number; algorithm?: TotpAlgorithm; stepSeconds?: number } = {},
): number | null {
  const digits = o.digits ?? TOTP_DEFAULTS.digits;
  const clean = code.replace(/\s/g, '');
  if (!new RegExp(`^\\d{${digits}}$`).test(clean)) return null;
  const now = totpStep(unixSeconds, o.stepSeconds);
  for (let d = -TOTP_DRIFT_STEPS; d <= TOTP_DRIFT_STEPS; d++) {
    const step = now + d;
    if (lastUsedStep !== null && step <= lastUsedStep) continue;
    if (sameDigits(hotp(secret, step, digits, o.algorithm ?? TOTP_DEFAULTS.algorithm), clean)) return step;
  }
  return null;
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommended length). */
export function newTotpSecret(): Buffer {
  return randomBytes(20);
}

/** The otpauth:// URI authenticator apps read (as a QR code or typed in). */
export function otpauthUri(o: { issuer: string; account: string; secret: Buffer }): string {
  const label = encodeURIComponent(`${o.issuer}:${o.account}`);
  const q = new URLSearchParams({ secret: base32Encode(o.secret), issuer: o.issuer, algorithm: 'SHA1', digits: '6', period: '30' });
  return `otpauth://totp/${label}?${q.toString()}`;
}

/** How many recovery codes a person gets: each works once. */
export const RECOVERY_CODE_COUNT = 10;

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'; // no 0/o, 1/l/i

/** Ten codes like `k7mq-9xrt-2hpw` (about 74 bits each): shown once, stored only as hashes. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(15);
    const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5, 10)}-${chars.slice(10, 15)}`;
  });
}

/** How a recovery code is typed back: case, spaces and dashes do not matter. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/** SHA-256 of the normalised code: the codes are random and long, so a fast hash is enough. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');
}
