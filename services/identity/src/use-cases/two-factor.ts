import { AppError, enqueueEvent, type Db, type DbOrTx, type Principal, type PrincipalKind } from '@countinghouse/kit';
import { findAdminById, findUserById } from '../db/queries.js';
import {
  ADMIN_FACTORS,
  PERSON_FACTORS,
  type FactorTables,
  advanceUsedStep,
  hasPasskey,
  listPlainTotpSecrets,
  resealTotpSecret,
  readTwoFactorPolicy,
  writeTwoFactorPolicy,
  confirmFactor,
  deleteSecondFactor,
  factorOf,
  putUnconfirmedFactor,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  spendRecoveryCode,
} from '../db/two-factor.js';
import { SCHEMA } from '../db/schema.js';
import { verifyPassword } from '../adapters/passwords.js';
import { adminTotpContext, SecretCipher, totpContext } from '../domain/secret-cipher.js';
import { holdsRequiredRole, londonDay, mustEnrolSecondFactor, TWO_FACTOR_REQUIRED_ROLES } from '../domain/two-factor-policy.js';
import { base32Decode, base32Encode, hashRecoveryCode, newRecoveryCodes, newTotpSecret, otpauthUri, verifyTotp } from '../domain/totp.js';

/**
 * Two-factor sign-in with an authenticator app (issue 32): enrol, confirm (which hands out ten
 * recovery codes, once), check at sign-in, and an administrator's reset. Kept apart from the password
 * sign-in: the login route calls {@link checkSecondFactor} after the password and nothing else changes.
 *
 * The same use cases serve people (staff and clients) and the admin panel's own accounts: a
 * {@link TwoFactorOwner} says which tables, which sealing context and which account (for its name and
 * password) a principal's factor lives in.
 */

export const TWO_FACTOR_MESSAGES = {
  codeRequired: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  codeWrong: 'That code is not right, or it has already been used.',
  alreadyOn: 'Two-factor sign-in is already on for this account.',
  notEnrolling: 'Start setting up two-factor sign-in first.',
  notOn: 'Two-factor sign-in is not on for this account.',
  passwordWrong: 'Your password is not right.',
} as const;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Whose second factor: a person's or an admin panel account's. */
export interface TwoFactorOwner {
  tables: FactorTables;
  /** The associated data the secret is sealed with (bound to the owner and its kind). */
  context: (id: string) => string;
  /** The account: its name in the authenticator app and its password hash; null when gone or inactive. */
  account: (db: DbOrTx, id: string) => Promise<{ label: string; passwordHash: string } | null>;
  /** Another second factor than the app (a person's passkey): then the password alone is not enough either. */
  hasOtherFactor: (db: DbOrTx, id: string) => Promise<boolean>;
}

export const PEOPLE_TWO_FACTOR: TwoFactorOwner = {
  tables: PERSON_FACTORS,
  context: totpContext,
  account: async (db, id) => {
    const u = await findUserById(db, id);
    return u ? { label: u.email, passwordHash: u.passwordHash } : null;
  },
  hasOtherFactor: hasPasskey,
};

export const ADMIN_TWO_FACTOR: TwoFactorOwner = {
  tables: ADMIN_FACTORS,
  context: adminTotpContext,
  account: async (db, id) => {
    const a = await findAdminById(db, id);
    return a?.isActive ? { label: `${a.username} (admin panel)`, passwordHash: a.passwordHash } : null;
  },
  hasOtherFactor: async () => false,
};

/** The owner of a signed-in principal's second factor: admin panel sessions have their own tables. */
export const ownerOf = (kind: PrincipalKind): TwoFactorOwner => (kind === 'admin' ? ADMIN_TWO_FACTOR : PEOPLE_TWO_FACTOR);

/** What the TOTP use cases need: the database and the cipher of the secrets at rest. */
export interface TwoFactorDeps {
  db: Db;
  cipher: SecretCipher;
}

/** The secret's bytes from its stored form (sealed; a row from before the encryption in base32). */
function secretOf(deps: TwoFactorDeps, owner: TwoFactorOwner, id: string, stored: string): Buffer {
  const base32 = SecretCipher.isSealed(stored) ? deps.cipher.open(stored, owner.context(id)) : stored;
  return base32Decode(base32)!;
}

/** Whether the practice's rule requires this person to set up a second factor before anything else. */
export async function enrolmentRequired(
  deps: { db: Db },
  userId: string,
  roles: readonly string[],
  owner: TwoFactorOwner = PEOPLE_TWO_FACTOR,
): Promise<boolean> {
  if (!holdsRequiredRole(roles)) return false;
  const policy = await readTwoFactorPolicy(deps.db);
  if (!policy.requiredFrom) return false;
  const f = await factorOf(deps.db, owner.tables, userId);
  const enrolled = Boolean(f?.confirmed) || (await owner.hasOtherFactor(deps.db, userId));
  return mustEnrolSecondFactor({ roles, requiredFrom: policy.requiredFrom, today: londonDay(), hasSecondFactor: enrolled });
}

/** The practice's rule: the date from which staff-side roles need a second factor. */
export async function getTwoFactorPolicy(deps: { db: Db }) {
  const p = await readTwoFactorPolicy(deps.db);
  return { required_from: p.requiredFrom, roles: [...TWO_FACTOR_REQUIRED_ROLES], updated_at: p.updatedAt?.toISOString() ?? null };
}

export async function setTwoFactorPolicy(deps: { db: Db }, p: Principal, input: { required_from: string | null }) {
  await writeTwoFactorPolicy(deps.db, input.required_from, p.id);
  return getTwoFactorPolicy(deps);
}

/** Whether the person has two-factor sign-in on, and how many recovery codes are left. */
export async function getTwoFactor(deps: { db: Db }, p: Principal) {
  const { tables } = ownerOf(p.kind);
  const f = await factorOf(deps.db, tables, p.id);
  return { totp_enabled: Boolean(f?.confirmed), recovery_codes_left: await recoveryCodesLeft(deps.db, tables, p.id) };
}

/** Start (or restart) enrolment: a new secret, shown once as text and as an otpauth:// URI. */
export async function startTotpEnrolment(deps: TwoFactorDeps & { issuer: () => string }, p: Principal) {
  const owner = ownerOf(p.kind);
  const account = await owner.account(deps.db, p.id);
  if (!account) throw new AppError('SESSION_EXPIRED', 'Your session has expired. Please sign in again.');
  const existing = await factorOf(deps.db, owner.tables, p.id);
  if (existing?.confirmed) throw new AppError('CONFLICT', TWO_FACTOR_MESSAGES.alreadyOn);
  const secret = newTotpSecret();
  await putUnconfirmedFactor(deps.db, owner.tables, p.id, deps.cipher.seal(base32Encode(secret), owner.context(p.id)));
  return { secret: base32Encode(secret), otpauth_uri: otpauthUri({ issuer: deps.issuer(), account: account.label, secret }) };
}

/** Confirm enrolment with a first code: two-factor sign-in is on, and ten recovery codes are shown once. */
export async function confirmTotpEnrolment(deps: TwoFactorDeps, p: Principal, input: { code: string }) {
  const owner = ownerOf(p.kind);
  return deps.db.transaction(async (tx) => {
    const row = await factorOf(tx, owner.tables, p.id, { forUpdate: true });
    if (!row) throw new AppError('CONFLICT', TWO_FACTOR_MESSAGES.notEnrolling);
    if (row.confirmed) throw new AppError('CONFLICT', TWO_FACTOR_MESSAGES.alreadyOn);
    const step = verifyTotp(secretOf(deps, owner, p.id, row.secret), input.code, nowSeconds(), null);
    if (step === null) throw new AppError('VALIDATION_FAILED', TWO_FACTOR_MESSAGES.codeWrong);
    await confirmFactor(tx, owner.tables, p.id, step);
    const codes = newRecoveryCodes();
    await replaceRecoveryCodes(tx, owner.tables, p.id, codes.map(hashRecoveryCode));
    return { recovery_codes: codes };
  });
}

/**
 * After a correct password: 'ok' when the person has no second factor, 'totp' or 'recovery' for a good code (a TOTP code
 * whose step is later than the last one used, or an unused recovery code, each spent atomically),
 * 'missing' when they gave none, 'wrong' otherwise (counted as a failed sign-in by the caller).
 */
export async function checkSecondFactor(
  deps: TwoFactorDeps,
  userId: string,
  given: { totp_code?: string; recovery_code?: string },
  owner: TwoFactorOwner = PEOPLE_TWO_FACTOR,
): Promise<'ok' | 'totp' | 'recovery' | 'missing' | 'wrong' | 'passkey'> {
  const t = owner.tables;
  const f = await factorOf(deps.db, t, userId);
  // A passkey without an authenticator app: the password alone is not enough, the passkey signs in.
  if (!f?.confirmed) return (await owner.hasOtherFactor(deps.db, userId)) ? 'passkey' : 'ok';
  if (given.recovery_code) {
    return (await spendRecoveryCode(deps.db, t, userId, hashRecoveryCode(given.recovery_code))) ? 'recovery' : 'wrong';
  }
  if (!given.totp_code) return 'missing';
  const step = verifyTotp(secretOf(deps, owner, userId, f.secret), given.totp_code, nowSeconds(), f.lastUsedStep);
  if (step === null) return 'wrong';
  // Only if no other sign-in used this step (or a later one) meanwhile: a code works once.
  return (await advanceUsedStep(deps.db, t, userId, step)) ? 'totp' : 'wrong';
}

/**
 * Seal every TOTP secret still stored in the clear (rows from before issue 32's encryption): run once at
 * start, after the SQL migrations, since the key is not the database's to know. Idempotent.
 */
export async function sealPlainTotpSecrets(deps: TwoFactorDeps): Promise<number> {
  let n = 0;
  for (const owner of [PEOPLE_TWO_FACTOR, ADMIN_TWO_FACTOR]) {
    const rows = await listPlainTotpSecrets(deps.db, owner.tables);
    for (const r of rows)
      await resealTotpSecret(deps.db, owner.tables, r.ownerId, r.secret, deps.cipher.seal(r.secret, owner.context(r.ownerId)));
    n += rows.length;
  }
  return n;
}

/** An administrator turns a person's second factor off (they lost their phone): recorded as an event. */
export async function resetSecondFactor(deps: { db: Db }, p: Principal, input: { userId: string }) {
  await deps.db.transaction(async (tx) => {
    if (!(await deleteSecondFactor(tx, PERSON_FACTORS, input.userId))) throw new AppError('NOT_FOUND', 'This person has no second factor.');
    await enqueueEvent(
      tx,
      SCHEMA,
      'identity.second_factor_reset',
      { userId: input.userId },
      { actor: { kind: p.kind, id: p.id }, key: input.userId },
    );
  });
}

/** New recovery codes (the old ones stop working), after a current code from the app: shown once. */
export async function regenerateRecoveryCodes(deps: TwoFactorDeps, p: Principal, input: { code: string }) {
  const owner = ownerOf(p.kind);
  return deps.db.transaction(async (tx) => {
    const row = await factorOf(tx, owner.tables, p.id, { forUpdate: true });
    if (!row?.confirmed) throw new AppError('CONFLICT', TWO_FACTOR_MESSAGES.notOn);
    const step = verifyTotp(secretOf(deps, owner, p.id, row.secret), input.code, nowSeconds(), row.lastUsedStep);
    if (step === null || !(await advanceUsedStep(tx, owner.tables, p.id, step)))
      throw new AppError('VALIDATION_FAILED', TWO_FACTOR_MESSAGES.codeWrong);
    const codes = newRecoveryCodes();
    await replaceRecoveryCodes(tx, owner.tables, p.id, codes.map(hashRecoveryCode));
    return { recovery_codes: codes };
  });
}

/** The person turns their own second factor off, with their password and a code (or a recovery code). */
export async function disableOwnTwoFactor(
  deps: TwoFactorDeps,
  p: Principal,
  input: { password: string; code?: string; recovery_code?: string },
) {
  const owner = ownerOf(p.kind);
  const account = await owner.account(deps.db, p.id);
  if (!account) throw new AppError('SESSION_EXPIRED', 'Your session has expired. Please sign in again.');
  if (!(await verifyPassword(account.passwordHash, input.password)))
    throw new AppError('VALIDATION_FAILED', TWO_FACTOR_MESSAGES.passwordWrong);
  const f = await factorOf(deps.db, owner.tables, p.id);
  if (!f?.confirmed) throw new AppError('CONFLICT', TWO_FACTOR_MESSAGES.notOn);
  if (!input.code && !input.recovery_code) throw new AppError('VALIDATION_FAILED', TWO_FACTOR_MESSAGES.codeRequired);
  const second = await checkSecondFactor(deps, p.id, { totp_code: input.code, recovery_code: input.recovery_code }, owner);
  if (second !== 'totp' && second !== 'recovery') throw new AppError('VALIDATION_FAILED', TWO_FACTOR_MESSAGES.codeWrong);
  await deps.db.transaction(async (tx) => {
    await deleteSecondFactor(tx, owner.tables, p.id);
    await enqueueEvent(
      tx,
      SCHEMA,
      'identity.second_factor_reset',
      { userId: p.id, ...(p.kind === 'admin' ? { account: 'admin_panel' as const } : {}) },
      { actor: { kind: p.kind, id: p.id }, key: p.id },
    );
  });
}

export const ADMIN_RESET_MESSAGES = {
  self: 'You cannot reset your own second factor here: turn it off on your Account security page, or ask another administrator.',
  none: 'This admin panel account has no second factor.',
  unknown: 'Admin account not found.',
} as const;

/**
 * Another administrator turns an admin panel account's second factor off (a lost phone): recorded as
 * identity.second_factor_reset with account 'admin_panel'. Never one's own: an admin panel session
 * resetting itself would drop its second factor with no password or code (turning it off needs both).
 */
export async function resetAdminSecondFactor(deps: { db: Db }, p: Principal, input: { adminId: string }) {
  if (p.kind === 'admin' && p.id === input.adminId) throw new AppError('FORBIDDEN', ADMIN_RESET_MESSAGES.self);
  await deps.db.transaction(async (tx) => {
    if (!(await findAdminById(tx, input.adminId))) throw new AppError('NOT_FOUND', ADMIN_RESET_MESSAGES.unknown);
    if (!(await deleteSecondFactor(tx, ADMIN_FACTORS, input.adminId))) throw new AppError('NOT_FOUND', ADMIN_RESET_MESSAGES.none);
    await enqueueEvent(
      tx,
      SCHEMA,
      'identity.second_factor_reset',
      { userId: input.adminId, account: 'admin_panel' },
      { actor: { kind: p.kind, id: p.id }, key: input.adminId },
    );
  });
}
