import type { Principal } from '@countinghouse/kit';
import { hasPermission } from '@countinghouse/proto';
import type { ClientScope } from '../db/queries.js';

/**
 * Which clients' deadlines a principal sees (permissions table: deadlines.view): admin, manager and
 * staff every client; an accountant the clients assigned to them; a client their own business.
 */
export function scopeOf(p: Principal): ClientScope {
  if (p.kind === 'admin' || p.roles.some((r) => r === 'admin' || r === 'manager' || r === 'staff')) return { all: true };
  return { all: false, ownerUserId: p.id, accountantId: p.roles.includes('accountant') ? p.id : null };
}

/** Who may change a client's tax profile or mark its deadlines done (deadlines.manage), narrowed like the view. */
export function manageScopeOf(p: Principal): ClientScope | null {
  if (p.kind === 'admin') return { all: true };
  if (!hasPermission(p.roles, 'deadlines.manage')) return null;
  if (p.roles.some((r) => r === 'admin' || r === 'manager' || r === 'staff')) return { all: true };
  // An accountant: only clients assigned to them (never as the owner of a business).
  return { all: false, ownerUserId: '', accountantId: p.id };
}
