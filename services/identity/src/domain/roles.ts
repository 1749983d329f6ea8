import { hasPermission, INVITABLE_ROLES, ROLES, type Invitation, type Role } from '@countinghouse/proto';

/** A text (a column, a claim) that is one of the roles. */
export function isRole(v: unknown): v is Role {
  return ROLES.some((r) => r === v);
}

/** A role an invitation may carry (proto's INVITABLE_ROLES). */
export function isInvitableRole(v: unknown): v is Invitation['role'] {
  return INVITABLE_ROLES.some((r) => r === v);
}

const STAFF_RANK: Role[] = ['admin', 'manager', 'staff'];

/** The highest staff-portal role among active grants, or null (accountant and client are not staff-portal roles). */
export function bestStaffRole(roles: readonly Role[]): Role | null {
  return STAFF_RANK.find((r) => roles.includes(r)) ?? null;
}

export function hasStaffAccess(roles: readonly Role[]): boolean {
  return hasPermission(roles, 'staff_portal.sign_in');
}

/**
 * A manager acts only on those below them: never on an administrator or another manager (issue 32: a
 * manager deactivating a fellow manager was a way to take over the practice's staff). An administrator
 * may act on anyone.
 */
export function canManage(actorRoles: readonly Role[], targetRoles: readonly Role[]): boolean {
  if (actorRoles.includes('admin')) return true;
  if (actorRoles.includes('manager')) return !targetRoles.includes('admin') && !targetRoles.includes('manager');
  return false;
}

/** Why `canManage` refused, in the words the staff panel shows. */
export function cannotManageMessage(targetRoles: readonly Role[]): string {
  return targetRoles.includes('admin')
    ? 'Only an administrator can deactivate an administrator.'
    : 'Only an administrator can deactivate a manager.';
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function displayName(p: { firstName: string | null; lastName: string | null; email: string }): string {
  const n = [p.firstName, p.lastName].filter(Boolean).join(' ').trim();
  return n || p.email;
}
