import type { Principal } from '@countinghouse/kit';
import { CRM_STAFF_ROLES, rolesFor, type Role } from '@countinghouse/proto';

/**
 * What a caller may see in crm:
 * - staff: admin, manager, staff (and the admin panel session) read and write everything;
 * - accountant: reads only the clients assigned to them and their tasks; no leads, no writes;
 * - client: only their own client record;
 * - none: nothing.
 */
export type CrmScope = { kind: 'staff' } | { kind: 'accountant'; userId: string } | { kind: 'client'; userId: string } | { kind: 'none' };

export function scopeOf(p: Pick<Principal, 'id' | 'roles' | 'kind'> | null): CrmScope {
  if (!p) return { kind: 'none' };
  const roles = p.roles;
  if (roles.some((r) => CRM_STAFF_ROLES.includes(r))) return { kind: 'staff' };
  if (p.kind === 'user' && roles.includes('accountant')) return { kind: 'accountant', userId: p.id };
  if (p.kind === 'user') return { kind: 'client', userId: p.id };
  return { kind: 'none' };
}

/** Roles allowed through the guard of read routes that accountants may use (filtered per row). Routes use rolesFor directly. */
export const STAFF_OR_ACCOUNTANT: Role[] = [...rolesFor('clients.view')];
export const STAFF_ONLY: Role[] = [...rolesFor('clients.edit')];
