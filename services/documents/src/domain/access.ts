import { clientScopeOf, type ClientScope, type ClientScopeRule, type Principal } from '@countinghouse/kit';
import { hasPermission } from '@countinghouse/proto';

/**
 * Which clients' documents a principal may see, the kit's clientScopeOf with this rule: the permission
 * that shows every client's is this area's own documents.view_all ('See all documents', today the same
 * roles as clients.edit), and the admin panel sees them all; otherwise those whose directory entry names
 * them as the client's own user (whatever their roles) or as the assigned accountant. Nothing else.
 */
export const CLIENT_SCOPE: ClientScopeRule = { seeAll: ['documents.view_all'], owner: 'anyone' };

/**
 * Who may reach identity evidence of the AML files (type aml_evidence), which no document list shows:
 * those preparing AML files (aml.manage) every client's; an accountant their assigned clients' (read
 * only); a client never, not even their own business's (permissions table: aml.manage, aml.view). The
 * admin panel session counts by its roles alone here, as in the AML service's own views.
 */
export function amlEvidenceScopeOf(p: Principal): ClientScope | null {
  if (!hasPermission(p.roles, 'aml.view')) return null;
  return clientScopeOf(p, { seeAll: ['aml.manage'], adminPanel: false });
}

export function isAdmin(p: Principal): boolean {
  return p.kind === 'admin' || hasPermission(p.roles, 'documents.access_log');
}
