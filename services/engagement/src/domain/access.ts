import type { Principal } from '@countinghouse/kit';
import { hasPermission } from '@countinghouse/proto';

/** Which clients' letters a principal sees (permissions table: engagement.view). */
export type LetterScope = { all: true } | { all: false; ownerUserId: string | null; accountantId: string | null };

export function scopeOf(p: Principal): LetterScope {
  if (p.kind === 'admin' || p.roles.some((r) => r === 'admin' || r === 'manager' || r === 'staff')) return { all: true };
  return { all: false, ownerUserId: p.id, accountantId: p.roles.includes('accountant') ? p.id : null };
}

export function canSee(scope: LetterScope, c: { userId: string | null; assignedAccountantId: string | null }): boolean {
  if (scope.all) return true;
  return (
    (scope.ownerUserId !== null && c.userId === scope.ownerUserId) ||
    (scope.accountantId !== null && c.assignedAccountantId === scope.accountantId)
  );
}

/** Only the client who owns the business signs its letter (engagement.sign), never staff on its behalf. */
export function canSign(p: Principal, c: { userId: string | null }): boolean {
  return p.kind === 'user' && hasPermission(p.roles, 'engagement.sign') && c.userId === p.id;
}
