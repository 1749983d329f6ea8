import { AppError, enqueueEvent, type Db, type Principal } from '@countinghouse/kit';
import {
  canInviteTo,
  invitableRolesFor,
  MESSAGES,
  type AcceptInviteBody,
  type Invitation,
  type InvitationListQuery,
  type InvitationWithLink,
  type InviteBody,
  type Role,
} from '@countinghouse/proto';
import {
  cancelInvitation,
  cancelPendingInvitationsOf,
  findInvitation,
  findInvitationByTokenHash,
  insertInvitation,
  inviterNow,
  listInvitations,
  lockInvitationByTokenHash,
  lockPendingInvitationsOf,
  markInvitationAccepted,
  renewInvitation,
  setInvitationDelivery,
  type InvitationRow,
} from '../db/invitations.js';
import { activeRoles, findUserByEmail, grantRole, insertProfile, insertUser, promoteClientProfile } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { effectiveStatus, invitationEmail, invitationExpiry, inviterStillAllows, inviteUrl } from '../domain/invitations.js';
import { normaliseEmail } from '../domain/roles.js';
import { hashToken, newOpaqueToken } from '../domain/tokens.js';
import type { Mailer } from '../adapters/mailer.js';
import { hashPassword, passwordProblem, verifyPassword } from '../adapters/passwords.js';

export interface InvitationDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  practiceName: () => string;
}

/** Nobody invites to, sees, re-sends or cancels an invitation for a role above their own (INVITE_HIERARCHY). */
function assertMayInviteTo(p: Principal, role: Role) {
  if (!canInviteTo(p.roles, role)) throw new AppError('FORBIDDEN', MESSAGES.inviteRoleNotAllowed);
}

const actorOf = (p: Principal) => ({ kind: p.kind, id: p.id }) as const;

export function toInvitation(r: InvitationRow): Invitation {
  const status = effectiveStatus(r.status, r.expiresAt);
  return {
    id: r.id,
    email: r.email,
    role: r.role,
    invited_by: r.invitedBy,
    invited_by_name: r.invitedByName,
    status,
    expires_at: r.expiresAt.toISOString(),
    created_at: r.createdAt.toISOString(),
    delivery: r.delivery ?? null,
  };
}

/** E-mail a fresh link and record how it went; the answer carries the link, once, for its creator. */
async function deliver(deps: InvitationDeps, row: InvitationRow, token: string): Promise<InvitationWithLink> {
  const url = inviteUrl(deps.publicUrl, token);
  const mail = invitationEmail({ practiceName: deps.practiceName(), role: row.role, url, expiresAt: row.expiresAt });
  const delivery = await deps.mailer.send({ to: row.email, ...mail, secret: url });
  const updated = await setInvitationDelivery(deps.db, row.id, delivery);
  return { ...toInvitation(updated), invite_url: url };
}

/** An invitation the caller may act on: 404 when there is none, 403 when its role is above theirs. */
async function invitationFor(deps: Pick<InvitationDeps, 'db'>, p: Principal, id: string): Promise<InvitationRow> {
  const r = await findInvitation(deps.db, id);
  if (!r) throw new AppError('NOT_FOUND', 'Invitation not found');
  assertMayInviteTo(p, r.role);
  return r;
}

/** Invite a staff member by e-mail and role; a new invitation replaces a pending one of the same e-mail. */
export async function inviteStaff(deps: InvitationDeps, p: Principal, body: InviteBody): Promise<InvitationWithLink> {
  const { db } = deps;
  const email = normaliseEmail(body.email);
  assertMayInviteTo(p, body.role);
  const existing = await findUserByEmail(db, email);
  if (existing && (await activeRoles(db, existing.id)).includes(body.role))
    throw new AppError('CONFLICT', `${email} already has the ${body.role} role.`);
  const token = newOpaqueToken();
  const row = await db.transaction(async (tx) => {
    // One pending invitation per e-mail: a new one replaces the old, whose link stops working; but
    // replacing one is cancelling it, which nobody may do to an invitation above their own rank.
    const replaced = await lockPendingInvitationsOf(tx, email);
    // (an expired one is dead already: replacing it takes nothing from anyone)
    if (replaced.some((r) => r.expiresAt > new Date() && !canInviteTo(p.roles, r.role)))
      throw new AppError('FORBIDDEN', MESSAGES.inviteReplacesHigherRole);
    await cancelPendingInvitationsOf(tx, email);
    const r = await insertInvitation(tx, {
      email,
      role: body.role,
      invitedBy: p.id,
      invitedByKind: p.kind,
      invitedByName: p.name || null,
      expiresAt: invitationExpiry(),
      inviteTokenHash: hashToken(token),
    });
    await enqueueEvent(
      tx,
      SCHEMA,
      'identity.invitation_created',
      { invitationId: r.id, email, role: body.role, expiresAt: r.expiresAt.toISOString() },
      { actor: actorOf(p), key: r.id },
    );
    return r;
  });
  return deliver(deps, row, token);
}

/** Invitations to the roles the caller may invite to, newest first (never their links). */
export async function findInvitations(deps: InvitationDeps, p: Principal, q: InvitationListQuery) {
  if (q.role) assertMayInviteTo(p, q.role);
  const visible = q.role ? [q.role] : invitableRolesFor(p.roles);
  const rows = visible.length === 0 ? [] : await listInvitations(deps.db, visible);
  return { invitations: rows.map(toInvitation), smtp_configured: deps.mailer.configured };
}

/** Re-send a pending (or expired) invitation: a fresh link for another full term; the old link stops working. */
export async function resendInvitation(deps: InvitationDeps, p: Principal, input: { id: string }): Promise<InvitationWithLink> {
  const { id } = input;
  await invitationFor(deps, p, id);
  const token = newOpaqueToken();
  // The re-sender vouches for the new link: acceptance checks their rank from now on.
  const row = await renewInvitation(deps.db, id, {
    inviteTokenHash: hashToken(token),
    expiresAt: invitationExpiry(),
    invitedBy: p.id,
    invitedByKind: p.kind,
    invitedByName: p.name || null,
  });
  if (!row) throw new AppError('CONFLICT', 'Only a pending or expired invitation can be re-sent.');
  return deliver(deps, row, token);
}

/** Cancel a pending invitation. */
export async function cancelStaffInvitation(deps: Pick<InvitationDeps, 'db'>, p: Principal, input: { id: string }): Promise<Invitation> {
  await invitationFor(deps, p, input.id);
  const r = await cancelInvitation(deps.db, input.id);
  if (r) return toInvitation(r);
  throw new AppError('CONFLICT', 'Only a pending invitation can be cancelled.');
}

/** Check an invitation link (public: the staff sign-up page). */
export async function lookUpInvitation(deps: Pick<InvitationDeps, 'db'>, input: { token?: string }) {
  const { token } = input;
  const none = { valid: false, email: null, role: null, expires_at: null };
  if (!token) return { ...none, message: MESSAGES.noInvitationToken };
  const r = await findInvitationByTokenHash(deps.db, hashToken(token));
  if (!r || r.status !== 'pending') return { ...none, message: MESSAGES.invalidOrExpiredInvitation };
  if (r.expiresAt <= new Date()) return { ...none, message: MESSAGES.invitationExpired };
  if (!inviterStillAllows(await inviterNow(deps.db, r), r.role)) return { ...none, message: MESSAGES.inviterNoLongerAllowed };
  return { valid: true, message: null, email: r.email, role: r.role, expires_at: r.expiresAt.toISOString() };
}

/** Accept an invitation: creates the account or adds the role to an existing one (whose password is required). */
export async function acceptInvitation(deps: Pick<InvitationDeps, 'db'>, body: AcceptInviteBody) {
  if (!body.token) throw new AppError('BAD_REQUEST', MESSAGES.noInvitationToken);
  if (body.confirm_password !== undefined && body.confirm_password !== body.password)
    throw new AppError('VALIDATION_FAILED', MESSAGES.passwordsDoNotMatch);
  // Every invitation is to a staff role: a new account's password must not be a common one.
  const problem = passwordProblem(body.password);
  if (problem === MESSAGES.passwordTooShort) throw new AppError('VALIDATION_FAILED', problem);
  const newHash = await hashPassword(body.password);
  const result = await deps.db.transaction(async (tx) => {
    // Lock the invitation: a token works once, even when two tabs submit together.
    const inv = await lockInvitationByTokenHash(tx, hashToken(body.token));
    if (!inv || inv.status !== 'pending') throw new AppError('GONE', MESSAGES.invalidOrExpiredInvitation);
    if (inv.expiresAt <= new Date()) throw new AppError('GONE', MESSAGES.invitationExpired);
    if (body.email && normaliseEmail(body.email) !== normaliseEmail(inv.email))
      throw new AppError('BAD_REQUEST', MESSAGES.invalidOrExpiredInvitation);
    // The link carries its inviter's authority: gone if they were deactivated or lost the rank.
    if (!inviterStillAllows(await inviterNow(tx, inv), inv.role)) throw new AppError('GONE', MESSAGES.inviterNoLongerAllowed);
    let user = await findUserByEmail(tx, inv.email);
    if (user) {
      // An existing account joins with its own password: a link alone must not take over an account.
      if (!(await verifyPassword(user.passwordHash, body.password))) {
        throw new AppError(
          'INVALID_CREDENTIALS',
          'An account with this e-mail already exists: enter its current password to accept the invitation.',
        );
      }
      await promoteClientProfile(tx, user.id, inv.role);
    } else {
      if (problem) throw new AppError('VALIDATION_FAILED', problem);
      user = await insertUser(tx, { email: inv.email, passwordHash: newHash });
      await insertProfile(tx, {
        userId: user.id,
        email: inv.email,
        firstName: body.first_name?.trim() || null,
        lastName: body.last_name?.trim() || null,
        role: inv.role,
      });
    }
    await grantRole(tx, user.id, inv.role, inv.invitedBy);
    await markInvitationAccepted(tx, inv.id, user.id);
    const actor = { kind: 'user' as const, id: user.id };
    await enqueueEvent(
      tx,
      SCHEMA,
      'identity.staff_joined',
      { userId: user.id, email: inv.email, role: inv.role, invitationId: inv.id },
      { actor, key: user.id },
    );
    const name = [body.first_name, body.last_name].filter(Boolean).join(' ').trim() || inv.email;
    await enqueueEvent(
      tx,
      SCHEMA,
      'identity.role_changed',
      { userId: user.id, role: inv.role, isActive: true, email: inv.email, name },
      { actor, key: user.id },
    );
    return { existing: Boolean(user && user.createdAt < inv.createdAt) };
  });
  return { success: true, message: result.existing ? 'Role added to your account. Please sign in.' : MESSAGES.accountCreated };
}
