import type { ClientScopeRule, Principal } from '@countinghouse/kit';
import { hasPermission } from '@countinghouse/proto';

/**
 * Which clients' letters a principal sees (permissions table: engagement.view), the kit's
 * clientScopeOf with this rule: admin, manager and staff (clients.edit) and the admin panel every
 * client; an accountant the clients assigned to them; anyone the directory names as the client's own
 * user their business (whatever their roles).
 */
export const CLIENT_SCOPE: ClientScopeRule = { owner: 'anyone' };

/** Only the client who owns the business signs its letter (engagement.sign), never staff on its behalf. */
export function canSign(p: Principal, c: { userId: string | null }): boolean {
  return p.kind === 'user' && hasPermission(p.roles, 'engagement.sign') && c.userId === p.id;
}
