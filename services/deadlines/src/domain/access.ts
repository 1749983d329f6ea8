import { clientScopeOf, type ClientScope, type ClientScopeRule, type Principal } from '@countinghouse/kit';
import { hasPermission } from '@countinghouse/proto';

/**
 * Which clients' deadlines a principal sees (permissions table: deadlines.view), the kit's
 * clientScopeOf with this rule: admin, manager and staff (clients.edit) and the admin panel every
 * client; an accountant the clients assigned to them; anyone the directory names as the client's own
 * user their business (whatever their roles).
 */
export const CLIENT_SCOPE: ClientScopeRule = { owner: 'anyone' };

/**
 * Who may change a client's tax profile or mark its deadlines done (deadlines.manage; the admin panel
 * always), narrowed by decision 141's rule: an accountant only the clients assigned to them, never as
 * the owner of a business.
 */
export function manageScopeOf(p: Principal): ClientScope | null {
  if (p.kind !== 'admin' && !hasPermission(p.roles, 'deadlines.manage')) return null;
  return clientScopeOf(p);
}
