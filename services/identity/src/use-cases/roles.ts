import { AppError, enqueueEvent, type Db, type Principal } from '@countinghouse/kit';
import {
  MESSAGES,
  permissionsOf,
  ROLE_DESCRIPTIONS,
  ROLES,
  type GrantRoleBody,
  type Role,
  type RoleHolder,
  type RoleList,
} from '@countinghouse/proto';
import { assertAdminLeft, countActiveAdmins, lockAdmins, syncProfileRole, withdrawnRolesTakeEffect } from '../db/admins.js';
import { deactivateAdmin, findProfile, findUserByEmail, findUserById, grantRoleIfNotHeld, revokeRole, roleHolders } from '../db/queries.js';
import { cancelInvitationsSentBy } from '../db/leavers.js';
import type { RevocationBook } from '../db/revocations.js';
import { SCHEMA } from '../db/schema.js';
import type { SessionStore } from '../db/session-store.js';
import { displayName } from '../domain/roles.js';

export interface RoleDeps {
  db: Db;
  userSessions: SessionStore;
  adminSessions: SessionStore;
  revocations: RevocationBook;
}

const actorOf = (p: Principal) => ({ kind: p.kind, id: p.id }) as const;

/** Each role: its description, its permissions and the people (and admin panel accounts) holding it. */
export async function findRoles(deps: Pick<RoleDeps, 'db'>, _principal: Principal): Promise<RoleList> {
  const [{ perRole, counts, accounts }, activeAdmins] = await Promise.all([roleHolders(deps.db), countActiveAdmins(deps.db)]);
  const countOf = new Map(counts.map((c) => [c.role, Number(c.n)]));
  return {
    active_admins: activeAdmins,
    roles: ROLES.map((role, i) => {
      const roleAccounts = accounts.filter((a) => a.role === role);
      const holders: RoleHolder[] = [
        ...roleAccounts.map((a) => ({
          kind: 'admin_account' as const,
          id: a.id,
          name: a.username,
          email: null,
          username: a.username,
          since: a.createdAt.toISOString(),
        })),
        ...perRole[i]!.map(({ grant, profile }) => ({
          kind: 'person' as const,
          id: grant.userId,
          name: displayName(profile),
          email: profile.email,
          username: null,
          since: grant.grantedAt.toISOString(),
        })),
      ];
      return {
        role,
        description: ROLE_DESCRIPTIONS[role],
        permissions: permissionsOf(role),
        holders,
        holder_count: roleAccounts.length + (countOf.get(role) ?? 0),
      };
    }),
  };
}

/** Grant a role to a registered person (by user id or e-mail); 409 if they already hold it. */
export async function grantPersonRole(deps: Pick<RoleDeps, 'db'>, p: Principal, body: GrantRoleBody): Promise<void> {
  const { db } = deps;
  const user = body.user_id ? await findUserById(db, body.user_id) : body.email ? await findUserByEmail(db, body.email) : undefined;
  if (user === undefined) throw new AppError('BAD_REQUEST', MESSAGES.validationFailed);
  if (!user) throw new AppError('NOT_FOUND', MESSAGES.personNotFound);
  const role = body.role;
  await db.transaction(async (tx) => {
    // Insert, or re-activate a revoked grant; an active one stays as it is and nothing comes back.
    if (!(await grantRoleIfNotHeld(tx, user.id, role, p.kind === 'user' ? p.id : null)))
      throw new AppError('CONFLICT', MESSAGES.roleAlreadyHeld);
    await syncProfileRole(tx, user.id);
    const profile = await findProfile(tx, user.id);
    await enqueueEvent(
      tx,
      SCHEMA,
      'identity.role_changed',
      { userId: user.id, role, isActive: true, email: profile?.email ?? user.email, name: profile ? displayName(profile) : user.email },
      { actor: actorOf(p), key: user.id },
    );
  });
}

/** Revoke a person's role; they are signed out everywhere at once (refused if it would leave no administrator). */
export async function revokePersonRole(deps: RoleDeps, p: Principal, input: { role: Role; userId: string }): Promise<void> {
  const { role, userId } = input;
  await deps.revocations.transaction(async (tx, revoke) => {
    if (role === 'admin') await lockAdmins(tx);
    if (!(await revokeRole(tx, userId, role))) throw new AppError('NOT_FOUND', 'This person does not hold this role.');
    if (role === 'admin') await assertAdminLeft(tx);
    await withdrawnRolesTakeEffect(tx, { sessions: deps.userSessions, revoke, userId, roles: [role], actor: actorOf(p) });
  });
}

/** Deactivate an admin panel account (refused for the last active administrator); its sessions end at once. */
export async function deactivateAdminAccount(deps: RoleDeps, p: Principal, input: { adminId: string }): Promise<void> {
  const { adminId } = input;
  await deps.revocations.transaction(async (tx, revoke) => {
    await lockAdmins(tx);
    if (!(await deactivateAdmin(tx, adminId))) throw new AppError('NOT_FOUND', 'Admin account not found');
    await assertAdminLeft(tx);
    await deps.adminSessions.revokeAllOf(tx, adminId);
    await cancelInvitationsSentBy(tx, { kind: 'admin', id: adminId, isActive: false, roles: [] });
    await revoke.subject(adminId, actorOf(p));
  });
}
