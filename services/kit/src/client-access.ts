import { clientVisibility, type ClientVisibilityRule } from '@countinghouse/proto';
import type { Principal } from './auth.js';

// Who may see which client, as every service narrows its rows and answers 404/403: proto's
// clientVisibility (decision 141, over the permissions table) for the staff side, and beside it the
// client's own business (its directory entry names the person as the client's user).

/**
 * Which clients a principal may see: every client, or those whose directory entry names them as the
 * client's own user (ownerUserId) or as its assigned accountant (accountantId). Both null: none.
 */
export type ClientScope = { all: true } | { all: false; ownerUserId: string | null; accountantId: string | null };

/**
 * How one area's view differs from decision 141, kept explicit (proto's ClientVisibilityRule: which
 * permission shows every client, whether the admin panel session does whatever its roles), plus who
 * counts as the owner of a business:
 * - 'none' (the default, decision 141): owning a business opens nothing (staff-side views, AML files);
 * - 'client': only a person holding the client role (requests: an accountant or MLRO who happens to be
 *   named on a business is not its owner there);
 * - 'anyone': any signed-in person the directory entry names, whatever their roles (documents,
 *   deadlines, engagement letters, integrations).
 */
export interface ClientScopeRule extends ClientVisibilityRule {
  owner?: 'none' | 'client' | 'anyone';
}

/** The principal's scope under an area's rule (decision 141's when none is given). */
export function clientScopeOf(p: Pick<Principal, 'id' | 'roles' | 'kind'>, rule: ClientScopeRule = {}): ClientScope {
  const v = clientVisibility(p, rule);
  if (v?.all) return { all: true };
  const owner = rule.owner ?? 'none';
  return {
    all: false,
    ownerUserId: owner === 'anyone' || (owner === 'client' && p.roles.includes('client')) ? p.id : null,
    accountantId: v ? v.accountantId : null,
  };
}

/** May this scope open the client whose directory entry is `entry` (as its owner or its accountant)? */
export function canSeeClient(scope: ClientScope, entry: { userId: string | null; assignedAccountantId: string | null }): boolean {
  if (scope.all) return true;
  return (scope.ownerUserId !== null && entry.userId === scope.ownerUserId) || isPracticeSide(scope, entry);
}

/** The practice's side of a client (every client, or the client's own accountant), as opposed to its owner. */
export function isPracticeSide(scope: ClientScope, entry: { assignedAccountantId: string | null }): boolean {
  return scope.all || (scope.accountantId !== null && entry.assignedAccountantId === scope.accountantId);
}
