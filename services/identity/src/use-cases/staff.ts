import { AppError, type Db, type Principal } from '@countinghouse/kit';
import type { Role, StaffListSchema, StillReachable } from '@countinghouse/proto';
import type { Static } from '@sinclair/typebox';
import { assertAdminLeft, lockAdmins, withdrawnRolesTakeEffect } from '../db/admins.js';
import { stillReachable } from '../db/leavers.js';
import { activeGrantsOf, activeRoles, findUserById, revokeStaffRoles } from '../db/queries.js';
import type { RevocationBook } from '../db/revocations.js';
import type { SessionStore } from '../db/session-store.js';
import { canManage, cannotManageMessage } from '../domain/roles.js';

const STAFF_ROLES: Role[] = ['admin', 'manager', 'staff', 'accountant'];

export interface StaffDeps {
  db: Db;
  sessions: SessionStore;
  revocations: RevocationBook;
}

/** Active staff members: one line per staff grant. */
export async function findStaff(deps: Pick<StaffDeps, 'db'>, _principal: Principal): Promise<Static<typeof StaffListSchema>> {
  const rows = await activeGrantsOf(deps.db, STAFF_ROLES);
  return {
    staff: rows.map(({ grant, profile }) => ({
      id: grant.id,
      user_id: grant.userId,
      email: profile.email,
      first_name: profile.firstName,
      last_name: profile.lastName,
      role: grant.role,
      is_active: grant.isActive,
      granted_at: grant.grantedAt.toISOString(),
    })),
  };
}

/** Deactivate a staff member: their staff roles end and their open sessions lose access at once. */
export async function deactivateStaff(deps: StaffDeps, p: Principal, input: { userId: string }): Promise<void> {
  const { userId } = input;
  if (p.kind === 'user' && p.id === userId) throw new AppError('CONFLICT', 'You cannot deactivate yourself.');
  const targetRoles = await activeRoles(deps.db, userId);
  const staffRoles = targetRoles.filter((r) => STAFF_ROLES.includes(r));
  if (staffRoles.length === 0) throw new AppError('NOT_FOUND', 'Staff member not found');
  if (!canManage(p.roles, targetRoles)) throw new AppError('FORBIDDEN', cannotManageMessage(targetRoles));
  // The revocation takes effect in this process before the answer (revocations.transaction).
  await deps.revocations.transaction(async (tx, revoke) => {
    // Deactivating an administrator must leave one (the last-admin rule, same lock as /roles).
    if (staffRoles.includes('admin')) await lockAdmins(tx);
    await revokeStaffRoles(tx, userId);
    if (staffRoles.includes('admin')) await assertAdminLeft(tx);
    await withdrawnRolesTakeEffect(tx, { sessions: deps.sessions, revoke, userId, roles: staffRoles, actor: { kind: p.kind, id: p.id } });
  });
}

/** The leaver view: what a person (by user id) can still reach; 404 for no such person. */
export async function getStillReachable(deps: Pick<StaffDeps, 'db'>, _p: Principal, input: { userId: string }): Promise<StillReachable> {
  if (!(await findUserById(deps.db, input.userId))) throw new AppError('NOT_FOUND', 'Staff member not found');
  return stillReachable(deps.db, input.userId);
}
