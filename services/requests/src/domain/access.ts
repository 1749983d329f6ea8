import type { Principal } from '@countinghouse/kit';

/**
 * Who sees a client's requests and thread (permissions table: requests.view / requests.manage):
 * admin, manager and staff every client; an accountant the clients assigned to them; a client the
 * business they own.
 */
export type ClientScope = { all: true } | { all: false; ownerUserId: string | null; accountantId: string | null };

export function scopeOf(p: Principal): ClientScope {
  if (p.kind === 'admin' || p.roles.some((r) => r === 'admin' || r === 'manager' || r === 'staff')) return { all: true };
  return {
    all: false,
    ownerUserId: p.roles.includes('client') ? p.id : null,
    accountantId: p.roles.includes('accountant') ? p.id : null,
  };
}

export function canSee(scope: ClientScope, c: { userId: string | null; assignedAccountantId: string | null }): boolean {
  if (scope.all) return true;
  return (
    (scope.ownerUserId !== null && c.userId === scope.ownerUserId) ||
    (scope.accountantId !== null && c.assignedAccountantId === scope.accountantId)
  );
}

/** The practice's side of a client (staff, or the client's own accountant), as opposed to the client. */
export function isPracticeSide(scope: ClientScope, c: { assignedAccountantId: string | null }): boolean {
  return scope.all || (scope.accountantId !== null && c.assignedAccountantId === scope.accountantId);
}
