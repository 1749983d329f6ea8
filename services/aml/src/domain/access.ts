import { clientScopeOf, type ClientScope, type ClientScopeRule, type Principal } from '@countinghouse/kit';
import { hasPermission } from '@countinghouse/proto';

/**
 * The AML files' rule for the kit's clientScopeOf: those preparing files (aml.manage: admin, manager,
 * the MLRO) see every client's, not staff (clients.edit) as elsewhere; an accountant the clients
 * assigned to them, read only; a client never, not even their own (owner: none). The admin panel
 * session counts by its roles alone here (My work's AML reviews let it see all: AML_WORK_SCOPE).
 */
export const FILE_SCOPE: ClientScopeRule = { seeAll: ['aml.manage'], adminPanel: false };

/** My work's AML reviews: the files' rule, with the admin panel session seeing every client's. */
export const AML_WORK_SCOPE: ClientScopeRule = { seeAll: ['aml.manage'] };

/**
 * The ACSP identity verification records (identity_verification.view): staff (clients.edit) and those
 * preparing AML files (aml.manage) every client's, and the admin panel; an accountant their assigned
 * clients'.
 */
export const IDENTITY_VERIFICATION_SCOPE: ClientScopeRule = { seeAll: ['clients.edit', 'aml.manage'] };

/** Whose AML files a principal sees (aml.view, else null), under FILE_SCOPE. */
export function viewScopeOf(p: Principal): ClientScope | null {
  if (!hasPermission(p.roles, 'aml.view')) return null;
  return clientScopeOf(p, FILE_SCOPE);
}

export const canEdit = (p: Principal) => hasPermission(p.roles, 'aml.manage');
export const canApprove = (p: Principal) => hasPermission(p.roles, 'aml.approve');
export const canDelete = (p: Principal) => hasPermission(p.roles, 'aml.delete');

export const actorName = (p: Principal) => p.name || p.id;
