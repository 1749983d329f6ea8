import { hasPermission, type Role } from '@countinghouse/proto';

const STAFF_RANK: Role[] = ['admin', 'manager', 'staff'];

/** The highest staff-portal role among active grants, or null (accountant and client are not staff-portal roles). */
export function bestStaffRole(roles: readonly Role[]): Role | null {
  return STAFF_RANK.find((r) => roles.includes(r)) ?? null;
}

export function hasStaffAccess(roles: readonly Role[]): boolean {
  return hasPermission(roles, 'staff_portal.sign_in');
}

/** A manager may not act on an administrator; an administrator may act on anyone. */
export function canManage(actorRoles: readonly Role[], targetRoles: readonly Role[]): boolean {
  if (actorRoles.includes('admin')) return true;
  if (actorRoles.includes('manager')) return !targetRoles.includes('admin');
  return false;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function displayName(p: { firstName: string | null; lastName: string | null; email: string }): string {
  const n = [p.firstName, p.lastName].filter(Boolean).join(' ').trim();
  return n || p.email;
}
