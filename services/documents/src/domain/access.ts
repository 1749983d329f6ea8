import type { Principal } from '@countinghouse/kit';
import { hasPermission, rolesFor, type Role } from '@countinghouse/proto';

/** Roles that see every client's documents (issue 4's rule; the permissions table's 'See all documents'). */
export const ALL_DOCUMENTS_ROLES: readonly Role[] = rolesFor('documents.view_all');

/**
 * Which clients a principal may see: every one, or those whose directory entry names them as the
 * client's own user or as the assigned accountant. Nothing else sees anything.
 */
export type DocumentScope = { all: true } | { all: false; ownerUserId: string | null; accountantId: string | null };

export function scopeOf(p: Principal): DocumentScope {
  if (p.kind === 'admin' || p.roles.some((r) => ALL_DOCUMENTS_ROLES.includes(r))) return { all: true };
  return {
    all: false,
    // A person is the owner of the businesses whose directory entry names their user id (role or not).
    ownerUserId: p.id,
    accountantId: p.roles.includes('accountant') ? p.id : null,
  };
}

/**
 * Who may reach identity evidence of the AML files (type aml_evidence), which no document list shows:
 * those preparing AML files every client's; an accountant their assigned clients' (read only); a client
 * never, not even their own business's (permissions table: aml.manage, aml.view).
 */
export function amlEvidenceScopeOf(p: Principal): DocumentScope | null {
  if (hasPermission(p.roles, 'aml.manage')) return { all: true };
  if (hasPermission(p.roles, 'aml.view')) return { all: false, ownerUserId: null, accountantId: p.id };
  return null;
}

export function isAdmin(p: Principal): boolean {
  return p.kind === 'admin' || hasPermission(p.roles, 'documents.access_log');
}
