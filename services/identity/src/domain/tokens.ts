import { createHash, randomBytes } from 'node:crypto';

/** An opaque, unguessable token (256 bits), URL-safe. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as SHA-256 hashes: a stolen table yields no usable session. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function addHours(d: Date, hours: number): Date {
  return new Date(d.getTime() + hours * 3_600_000);
}
