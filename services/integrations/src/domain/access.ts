import type { ClientScopeRule } from '@countinghouse/kit';

/**
 * Whose integrations a principal may see, the kit's clientScopeOf with this rule: the permission that
 * shows every client's summary (read only) is this area's own integrations.view_all (today the same
 * roles as clients.edit), and the admin panel sees them all; an accountant those assigned to them;
 * anyone else only the businesses whose directory entry names them as the client's own user.
 * Connecting, syncing and disconnecting are the client's own acts.
 */
export const CLIENT_SCOPE: ClientScopeRule = { seeAll: ['integrations.view_all'], owner: 'anyone' };
