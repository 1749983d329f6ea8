import { AppError, type Db, type Principal } from '@countinghouse/kit';
import { MESSAGES, type ChangePasswordBody, type Role, type ResetLookup, type ResetPasswordBody } from '@countinghouse/proto';
import { endEverySession } from '../db/end-sessions.js';
import {
  countRecentResets,
  findLiveReset,
  insertReset,
  lockResetRequests,
  replaceAdminPassword,
  replaceUserPassword,
  setUserPassword,
  spendOtherResets,
  spendOutstandingResets,
  spendReset,
} from '../db/password-resets.js';
import { activeRoles, findAdminById, findUserByEmail, findUserById } from '../db/queries.js';
import type { RevocationBook } from '../db/revocations.js';
import { clearAccountThrottle } from '../db/throttle.js';
import type { SessionRow, SessionStore } from '../db/session-store.js';
import {
  isPrivileged,
  passwordResetEmail,
  RESET_MAIL_WINDOW_MINUTES,
  RESET_MAILS_PER_WINDOW,
  resetExpiry,
  resetUrl,
} from '../domain/password-resets.js';
import { normaliseEmail } from '../domain/roles.js';
import { hashToken, newOpaqueToken } from '../domain/tokens.js';
import type { Mailer } from '../adapters/mailer.js';
import { hashPassword, passwordProblem, verifyPassword } from '../adapters/passwords.js';

export interface PasswordDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  practiceName: () => string;
  userSessions: SessionStore;
  adminSessions: SessionStore;
  /** Ended sessions are recorded and refused by this process before the answer (sign-in security). */
  revocations: RevocationBook;
}

type Origin = { ip: string | null; userAgent: string };

function checkNew(password: string, confirm: string | undefined) {
  if (confirm !== undefined && confirm !== password) throw new AppError('VALIDATION_FAILED', MESSAGES.passwordsDoNotMatch);
  const problem = passwordProblem(password);
  if (problem) throw new AppError('VALIDATION_FAILED', problem);
}

/**
 * Forgot password: when the e-mail belongs to an account, a single-use link valid for
 * LIMITS.passwordResetMinutes is e-mailed (SMTP or the outgoing-mail log). The caller always gives the
 * same answer, and the mail goes out after it, so neither the answer nor its timing tells whether the
 * e-mail has an account. A few mails per account per quarter-hour at most.
 */
export async function requestPasswordReset(deps: PasswordDeps, input: { email: string; ip: string | null }): Promise<void> {
  const user = await findUserByEmail(deps.db, normaliseEmail(input.email));
  if (!user) return;
  const token = newOpaqueToken();
  const inserted = await deps.db.transaction(async (tx) => {
    // Serialise one account's requests, so the per-window count cannot be raced past.
    await lockResetRequests(tx, user.id);
    if ((await countRecentResets(tx, user.id, RESET_MAIL_WINDOW_MINUTES)) >= RESET_MAILS_PER_WINDOW) return false;
    // A new link replaces any earlier one still outstanding.
    await spendOutstandingResets(tx, user.id);
    await insertReset(tx, { userId: user.id, tokenHash: hashToken(token), expiresAt: resetExpiry(), requestedIp: input.ip });
    return true;
  });
  if (!inserted) return;
  const url = resetUrl(deps.publicUrl, token);
  deps.mailer.sendLater({ to: user.email, ...passwordResetEmail({ practiceName: deps.practiceName(), url }), secret: url });
}

async function liveReset(db: Db, token: string) {
  return findLiveReset(db, hashToken(token));
}

/** For the reset page: is this link still usable, and will the new password be checked as a staff one? */
export async function findPasswordReset(deps: Pick<PasswordDeps, 'db'>, token: string | undefined): Promise<ResetLookup> {
  const reset = token ? await liveReset(deps.db, token) : null;
  if (!reset) return { valid: false, message: MESSAGES.passwordResetInvalid, is_staff: false };
  return { valid: true, message: null, is_staff: isPrivileged(await activeRoles(deps.db, reset.userId)) };
}

/** Set a new password with a reset link: the link is spent, and every session of the account ends. */
export async function resetPassword(deps: PasswordDeps, input: ResetPasswordBody): Promise<void> {
  const found = input.token ? await liveReset(deps.db, input.token) : null;
  if (!found) throw new AppError('GONE', MESSAGES.passwordResetInvalid);
  checkNew(input.password, input.confirm_password);
  const passwordHash = await hashPassword(input.password);
  await deps.revocations.transaction(async (tx, r) => {
    // Spend the link first: of two submissions at once, one wins and the other finds it used.
    if (!(await spendReset(tx, found.id))) throw new AppError('GONE', MESSAGES.passwordResetInvalid);
    await spendOtherResets(tx, found.userId, found.id);
    const user = await setUserPassword(tx, found.userId, passwordHash);
    await endEverySession(tx, r, {
      sessions: deps.userSessions,
      ownerId: found.userId,
      actor: { kind: 'user', id: found.userId },
      cutOffTokens: true,
    });
    // Whoever proved control of the mailbox is no longer locked out by someone else's guesses.
    if (user) await clearAccountThrottle(tx, { scope: 'user', key: normaliseEmail(user.email) });
  });
}

/**
 * Change the signed-in person's password: the current one is required. Every session of the account
 * ends; the caller's browser continues in a new session, returned here for the route to hand over.
 */
export async function changePersonPassword(
  deps: PasswordDeps,
  principal: Principal,
  input: ChangePasswordBody,
  origin: Origin,
): Promise<{ session: SessionRow; refreshToken: string }> {
  const user = await findUserById(deps.db, principal.id);
  if (!user) throw new AppError('SESSION_EXPIRED', MESSAGES.userSessionExpired);
  if (!(await verifyPassword(user.passwordHash, input.current_password)))
    throw new AppError('INVALID_CREDENTIALS', MESSAGES.currentPasswordWrong);
  if (input.new_password === input.current_password) throw new AppError('VALIDATION_FAILED', MESSAGES.newPasswordSameAsCurrent);
  checkNew(input.new_password, input.confirm_password);
  const passwordHash = await hashPassword(input.new_password);
  const next = await deps.revocations.transaction(async (tx, r) => {
    // Only if the password is still the one just checked: two changes at once cannot both pass.
    const done = await replaceUserPassword(tx, user.id, user.passwordHash, passwordHash);
    if (!done) throw new AppError('CONFLICT', MESSAGES.currentPasswordWrong);
    await endEverySession(tx, r, {
      sessions: deps.userSessions,
      ownerId: user.id,
      actor: { kind: 'user', id: user.id },
      cutOffTokens: false,
    });
    return deps.userSessions.create(tx, user.id, origin);
  });
  return next;
}

/** The same for an admin panel account (identity's admin tables). */
export async function changeAdminPassword(
  deps: PasswordDeps,
  principal: Principal,
  input: ChangePasswordBody,
  origin: Origin,
): Promise<{ session: SessionRow; refreshToken: string; admin: { id: string; username: string; role: Role } }> {
  const admin = await findAdminById(deps.db, principal.id);
  if (!admin?.isActive) throw new AppError('SESSION_EXPIRED', MESSAGES.adminSessionExpired);
  if (!(await verifyPassword(admin.passwordHash, input.current_password)))
    throw new AppError('INVALID_CREDENTIALS', MESSAGES.currentPasswordWrong);
  if (input.new_password === input.current_password) throw new AppError('VALIDATION_FAILED', MESSAGES.newPasswordSameAsCurrent);
  checkNew(input.new_password, input.confirm_password);
  const passwordHash = await hashPassword(input.new_password);
  const next = await deps.revocations.transaction(async (tx, r) => {
    const done = await replaceAdminPassword(tx, admin.id, admin.passwordHash, passwordHash);
    if (!done) throw new AppError('CONFLICT', MESSAGES.currentPasswordWrong);
    await endEverySession(tx, r, {
      sessions: deps.adminSessions,
      ownerId: admin.id,
      actor: { kind: 'admin', id: admin.id },
      cutOffTokens: false,
    });
    return deps.adminSessions.create(tx, admin.id, origin);
  });
  return { ...next, admin };
}
