import { AppError, enqueueEvent, type Db, type Principal } from '@countinghouse/kit';
import { findUserById } from '../db/queries.js';
import {
  advanceUsedStep,
  confirmFactor,
  deleteSecondFactor,
  factorOf,
  putUnconfirmedFactor,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  spendRecoveryCode,
} from '../db/two-factor.js';
import { SCHEMA } from '../db/schema.js';
import { base32Decode, base32Encode, hashRecoveryCode, newRecoveryCodes, newTotpSecret, otpauthUri, verifyTotp } from '../domain/totp.js';

/**
 * Two-factor sign-in with an authenticator app (issue 32): enrol, confirm (which hands out ten
 * recovery codes, once), check at sign-in, and an administrator's reset. Kept apart from the password
 * sign-in: the login route calls {@link checkSecondFactor} after the password and nothing else changes.
 */

export const TWO_FACTOR_MESSAGES = {
  codeRequired: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  codeWrong: 'That code is not right, or it has already been used.',
  alreadyOn: 'Two-factor sign-in is already on for this account.',
  notEnrolling: 'Start setting up two-factor sign-in first.',
} as const;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Whether the person has two-factor sign-in on, and how many recovery codes are left. */
export async function getTwoFactor(deps: { db: Db }, p: Principal) {
  const f = await factorOf(deps.db, p.id);
  return { totp_enabled: Boolean(f?.confirmed), recovery_codes_left: await recoveryCodesLeft(deps.db, p.id) };
}

/** Start (or restart) enrolment: a new secret, shown once as text and as an otpauth:// URI. */
export async function startTotpEnrolment(deps: { db: Db; issuer: () => string }, p: Principal) {
  if (p.kind !== 'user') throw new AppError('FORBIDDEN', 'Two-factor sign-in is for people’s accounts.');
  const user = await findUserById(deps.db, p.id);
  if (!user) throw new AppError('SESSION_EXPIRED', 'Your session has expired. Please sign in again.');
  const existing = await factorOf(deps.db, p.id);
  if (existing?.confirmed) throw new AppError('CONFLICT', TWO_FACTOR_MESSAGES.alreadyOn);
  const secret = newTotpSecret();
  await putUnconfirmedFactor(deps.db, p.id, base32Encode(secret));
  return { secret: base32Encode(secret), otpauth_uri: otpauthUri({ issuer: deps.issuer(), account: user.email, secret }) };
}

/** Confirm enrolment with a first code: two-factor sign-in is on, and ten recovery codes are shown once. */
export async function confirmTotpEnrolment(deps: { db: Db }, p: Principal, input: { code: string }) {
  return deps.db.transaction(async (tx) => {
    const row = await factorOf(tx, p.id, { forUpdate: true });
    if (!row) throw new AppError('CONFLICT', TWO_FACTOR_MESSAGES.notEnrolling);
    if (row.confirmed) throw new AppError('CONFLICT', TWO_FACTOR_MESSAGES.alreadyOn);
    const step = verifyTotp(base32Decode(row.secret)!, input.code, nowSeconds(), null);
    if (step === null) throw new AppError('VALIDATION_FAILED', TWO_FACTOR_MESSAGES.codeWrong);
    await confirmFactor(tx, p.id, step);
    const codes = newRecoveryCodes();
    await replaceRecoveryCodes(tx, p.id, codes.map(hashRecoveryCode));
    return { recovery_codes: codes };
  });
}

/**
 * After a correct password: 'ok' when the person has no second factor or gave a good code (a TOTP code
 * whose step is later than the last one used, or an unused recovery code, each spent atomically),
 * 'missing' when they gave none, 'wrong' otherwise (counted as a failed sign-in by the caller).
 */
export async function checkSecondFactor(
  deps: { db: Db },
  userId: string,
  given: { totp_code?: string; recovery_code?: string },
): Promise<'ok' | 'missing' | 'wrong'> {
  const f = await factorOf(deps.db, userId);
  if (!f?.confirmed) return 'ok';
  if (given.recovery_code) {
    return (await spendRecoveryCode(deps.db, userId, hashRecoveryCode(given.recovery_code))) ? 'ok' : 'wrong';
  }
  if (!given.totp_code) return 'missing';
  const step = verifyTotp(base32Decode(f.secret)!, given.totp_code, nowSeconds(), f.lastUsedStep);
  if (step === null) return 'wrong';
  // Only if no other sign-in used this step (or a later one) meanwhile: a code works once.
  return (await advanceUsedStep(deps.db, userId, step)) ? 'ok' : 'wrong';
}

/** An administrator turns a person's second factor off (they lost their phone): recorded as an event. */
export async function resetSecondFactor(deps: { db: Db }, p: Principal, input: { userId: string }) {
  await deps.db.transaction(async (tx) => {
    if (!(await deleteSecondFactor(tx, input.userId))) throw new AppError('NOT_FOUND', 'This person has no second factor.');
    await enqueueEvent(
      tx,
      SCHEMA,
      'identity.second_factor_reset',
      { userId: input.userId },
      { actor: { kind: p.kind, id: p.id }, key: input.userId },
    );
  });
}
