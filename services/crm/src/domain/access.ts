import { clientScopeOf, type ClientScopeRule, type Principal } from '@countinghouse/kit';
import { rolesFor, type Role } from '@countinghouse/proto';

/**
 * What a caller may see in crm:
 * - staff: admin, manager, staff (and the admin panel session, by its role) read and write everything;
 * - accountant: reads only the clients assigned to them and their tasks; no leads, no writes;
 * - client: only their own client record;
 * - none: nothing.
 */
export type CrmScope = { kind: 'staff' } | { kind: 'accountant'; userId: string } | { kind: 'client'; userId: string } | { kind: 'none' };

/**
 * crm's rule for the kit's clientScopeOf: staff (clients.edit, CRM_STAFF_ROLES) by their roles alone,
 * so the admin panel session sees every client through the role its token carries, not its kind; an
 * accountant the clients assigned to them; the person a client record names as its user, that record.
 */
export const CLIENT_SCOPE: ClientScopeRule = { adminPanel: false, owner: 'anyone' };

export function scopeOf(p: Pick<Principal, 'id' | 'roles' | 'kind'> | null): CrmScope {
  if (!p) return { kind: 'none' };
  const s = clientScopeOf(p, CLIENT_SCOPE);
  if (s.all) return { kind: 'staff' };
  // Only a person's own session is an accountant or a client here; an admin panel session without a staff role sees nothing.
  if (p.kind !== 'user') return { kind: 'none' };
  if (s.accountantId) return { kind: 'accountant', userId: s.accountantId };
  return { kind: 'client', userId: p.id };
}

/** Roles allowed through the guard of read routes that accountants may use (filtered per row). Routes use rolesFor directly. */
export const STAFF_OR_ACCOUNTANT: Role[] = [...rolesFor('clients.view')];
export const STAFF_ONLY: Role[] = [...rolesFor('clients.edit')];
