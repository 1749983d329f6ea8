import type { SecondFactorUse } from '@countinghouse/proto';
import { createHash } from 'node:crypto';

/**
 * What a sign-in's second factor was, for HMRC's Gov-Client-Multi-Factor (proto/identity/fraud-headers):
 * an authenticator app is TOTP, a recovery code or a passkey OTHER. The reference is a SHA-256 of what
 * identifies the factor (the person's app, their recovery codes, the passkey's credential id), never
 * the secret, so the same factor always gives the same reference.
 */
export function secondFactorUse(kind: 'totp' | 'recovery' | 'passkey', id: string, at = Math.floor(Date.now() / 1000)): SecondFactorUse {
  return {
    type: kind === 'totp' ? 'TOTP' : 'OTHER',
    at,
    reference: createHash('sha256').update(`${kind}:${id}`).digest('hex'),
  };
}
