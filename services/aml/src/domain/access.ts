import type { Principal } from '@countinghouse/kit';
import { hasPermission } from '@countinghouse/proto';
import type { FileScope } from '../db/queries.js';

/**
 * Whose AML files a principal sees (aml.view): admin, manager and the MLRO every client's; an
 * accountant the clients assigned to them, read only; a client never, not even their own.
 */
export function viewScopeOf(p: Principal): FileScope | null {
  if (!hasPermission(p.roles, 'aml.view')) return null;
  if (hasPermission(p.roles, 'aml.manage')) return { all: true };
  return { all: false, accountantId: p.id };
}

export const canEdit = (p: Principal) => hasPermission(p.roles, 'aml.manage');
export const canApprove = (p: Principal) => hasPermission(p.roles, 'aml.approve');
export const canDelete = (p: Principal) => hasPermission(p.roles, 'aml.delete');

export const actorName = (p: Principal) => p.name || p.id;
