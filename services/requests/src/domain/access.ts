import type { ClientScopeRule } from '@countinghouse/kit';

/**
 * Who sees a client's requests and thread (permissions table: requests.view / requests.manage), the
 * kit's clientScopeOf with this rule: admin, manager and staff (clients.edit) and the admin panel every
 * client; an accountant the clients assigned to them; the owner of a business only when they hold the
 * client role (unlike documents or letters, where anyone the directory names as its user is the owner).
 */
export const CLIENT_SCOPE: ClientScopeRule = { owner: 'client' };
