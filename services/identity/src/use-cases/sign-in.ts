import { AppError, enqueueEvent, pgErrorCode, type Db, type Principal } from '@countinghouse/kit';
import {
  homeFor,
  MESSAGES,
  phoneProblem,
  SIGNUP_MESSAGES,
  validateCompanyNumber,
  type Me,
  type SignupBody,
  isIncorporated,
} from '@countinghouse/proto';
import {
  activeRoles,
  findAdminById,
  findAdminByUsername,
  findProfile,
  findUserByEmail,
  grantRole,
  insertProfile,
  insertUserId,
  markAdminSignedIn,
  markUserSignedIn,
} from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import type { SessionStore } from '../db/session-store.js';
import { bestStaffRole, hasStaffAccess, normaliseEmail } from '../domain/roles.js';
import { hashPassword, passwordProblem, verifyPassword } from '../adapters/passwords.js';
import { enrolmentRequired } from './two-factor.js';

/** What the sign-in use cases are handed: the database and the session store of their kind. */
export interface SignInDeps {
  db: Db;
  sessions: SessionStore;
}

/** Where a new session comes from: the client's address and browser. */
export interface SessionOrigin {
  ip: string | null;
  userAgent: string;
}

// ── administrators ───────────────────────────────────────────────────────────────────────────────

/** The active admin panel account these credentials open, or null (the same work either way). */
export async function findAdminByPassword(deps: Pick<SignInDeps, 'db'>, input: { username: string; password: string }) {
  const found = await findAdminByUsername(deps.db, input.username);
  const ok = await verifyPassword(found?.isActive ? found.passwordHash : null, input.password);
  return found && found.isActive && ok ? found : null;
}

/** A new administrator session: created, the sign-in recorded and announced, in one transaction. */
export async function startAdminSession(deps: SignInDeps, admin: { id: string; username: string }, origin: SessionOrigin) {
  return deps.db.transaction(async (tx) => {
    const created = await deps.sessions.create(tx, admin.id, origin);
    await markAdminSignedIn(tx, admin.id);
    await enqueueEvent(
      tx,
      SCHEMA,
      'identity.admin_signed_in',
      { adminId: admin.id, username: admin.username, sessionId: created.session.id, ip: origin.ip },
      { actor: { kind: 'admin', id: admin.id }, key: admin.id },
    );
    return created;
  });
}

/** The active account behind an administrator's session, or null. */
export async function findActiveAdmin(deps: Pick<SignInDeps, 'db'>, adminId: string) {
  const admin = await findAdminById(deps.db, adminId);
  return admin?.isActive ? admin : null;
}

/** The administrator's live session and account (SESSION_EXPIRED when either is gone). */
export async function getAdminSession(deps: SignInDeps, principal: Principal) {
  const session = await deps.sessions.findLive(principal.sessionId);
  const admin = session ? await findActiveAdmin(deps, session.ownerId) : null;
  if (!session || !admin) throw new AppError('SESSION_EXPIRED', MESSAGES.adminSessionExpired);
  return { session, admin };
}

// ── people ───────────────────────────────────────────────────────────────────────────────────────

/** The person these credentials open, or null (the same work for an unknown e-mail). */
export async function findPersonByPassword(deps: Pick<SignInDeps, 'db'>, input: { key: string; password: string }) {
  const found = await findUserByEmail(deps.db, input.key);
  const ok = await verifyPassword(found?.passwordHash ?? null, input.password);
  return found && ok ? found : null;
}

/** The signed-in person: profile, active roles, staff role, and when the session ends. */
export async function getMe(deps: Pick<SignInDeps, 'db'>, userId: string, sessionExpiresAt: Date): Promise<Me> {
  const profile = await findProfile(deps.db, userId);
  if (!profile) throw new AppError('SESSION_EXPIRED', MESSAGES.userSessionExpired);
  const roles = await activeRoles(deps.db, userId);
  return {
    user: {
      user_id: profile.userId,
      email: profile.email,
      first_name: profile.firstName,
      last_name: profile.lastName,
      company_name: profile.companyName,
      role: profile.role || 'client',
      created_at: profile.createdAt.toISOString(),
    },
    roles,
    staff_role: bestStaffRole(roles),
    session_expires_at: sessionExpiresAt.toISOString(),
    // Where /login takes them (issue 26): staff-side people to My work, clients to their dashboard.
    home: homeFor(roles),
    // The practice requires a second factor of staff-side roles from a date (issue 32).
    ...((await enrolmentRequired(deps, userId, roles)) ? { two_factor_enrolment_required: true } : {}),
  };
}

/** A new session for a person who proved their password; the staff portal only for those with staff access. */
export async function startPersonSession(deps: SignInDeps, user: { id: string }, input: { portal?: string; origin: SessionOrigin }) {
  const roles = await activeRoles(deps.db, user.id);
  if (input.portal === 'staff' && !hasStaffAccess(roles)) throw new AppError('FORBIDDEN', MESSAGES.noStaffAccess);
  const { session, refreshToken } = await deps.db.transaction(async (tx) => {
    const created = await deps.sessions.create(tx, user.id, input.origin);
    await markUserSignedIn(tx, user.id);
    return created;
  });
  return { session, refreshToken, me: await getMe(deps, user.id, session.expiresAt) };
}

/** The person's live session and who they are (SESSION_EXPIRED when the session is gone). */
export async function getPersonSession(deps: SignInDeps, principal: Principal): Promise<Me> {
  const session = await deps.sessions.findLive(principal.sessionId);
  if (!session) throw new AppError('SESSION_EXPIRED', MESSAGES.userSessionExpired);
  return getMe(deps, session.ownerId, session.expiresAt);
}

/**
 * What the sign-up says about the business (issue 33), checked: a limited company or LLP gives its name; a
 * company number is Companies House's 8 characters; a phone is one we can call.
 */
function signupBusiness(body: SignupBody): { businessType: string | null; companyNumber: string | null; phone: string | null } {
  const field = (path: string, message: string) => new AppError('VALIDATION_FAILED', message, [{ path, message }]);
  if (isIncorporated(body.business_type) && !body.company_name?.trim()) {
    throw field('/company_name', SIGNUP_MESSAGES.companyNameRequired);
  }
  let companyNumber: string | null = null;
  if (body.company_number?.trim()) {
    const n = validateCompanyNumber(body.company_number);
    if (!n.ok) throw field('/company_number', n.message);
    companyNumber = n.value;
  }
  const phone = body.phone?.trim() || null;
  if (phone) {
    const p = phoneProblem(phone);
    if (p) throw field('/phone', p);
  }
  return { businessType: body.business_type ?? null, companyNumber, phone };
}

/** Create a client account: the person, their profile and the client role, announced, in one transaction. */
export async function signUp(deps: Pick<SignInDeps, 'db'>, body: SignupBody): Promise<void> {
  // The one password rule (issue 32): a client may not choose a common password either.
  const problem = passwordProblem(body.password);
  if (problem) throw new AppError('VALIDATION_FAILED', problem);
  const business = signupBusiness(body);
  const email = normaliseEmail(body.email);
  const passwordHash = await hashPassword(body.password);
  try {
    await deps.db.transaction(async (tx) => {
      const userId = await insertUserId(tx, { email, passwordHash });
      await insertProfile(tx, {
        userId,
        email,
        firstName: body.first_name?.trim() || null,
        lastName: body.last_name?.trim() || null,
        companyName: body.company_name?.trim() || null,
        role: 'client',
      });
      await grantRole(tx, userId, 'client', null);
      await enqueueEvent(
        tx,
        SCHEMA,
        'identity.user_registered',
        {
          userId,
          email,
          firstName: body.first_name?.trim() || null,
          lastName: body.last_name?.trim() || null,
          companyName: body.company_name?.trim() || null,
          ...business,
        },
        { actor: { kind: 'user', id: userId }, key: userId },
      );
    });
  } catch (err) {
    if (pgErrorCode(err) === '23505') throw new AppError('CONFLICT', 'An account with this e-mail already exists. Please sign in.');
    throw err;
  }
}
