import type { Principal } from '@countinghouse/kit';
import { rolesFor, type Role } from '@countinghouse/proto';

/** Roles that may look at any client's integration summary (read only). */
export const SUMMARY_ROLES: readonly Role[] = rolesFor('integrations.view_all');

export type ViewScope = { all: true } | { all: false; ownerUserId: string; accountantId: string | null };

/**
 * Whose integrations a principal may see. Staff and the admin panel see any client's summary; an
 * accountant those assigned to them; everyone else only the businesses whose directory entry names
 * them as the client's own user. Connecting, syncing and disconnecting are the client's own acts.
 */
export function viewScopeOf(p: Principal): ViewScope {
  if (p.kind === 'admin' || p.roles.some((r) => SUMMARY_ROLES.includes(r))) return { all: true };
  return { all: false, ownerUserId: p.id, accountantId: p.roles.includes('accountant') ? p.id : null };
}

export function canView(scope: ViewScope, entry: { userId: string | null; assignedAccountantId: string | null }): boolean {
  if (scope.all) return true;
  return entry.userId === scope.ownerUserId || (scope.accountantId !== null && entry.assignedAccountantId === scope.accountantId);
}
