import type { Db } from '@countinghouse/kit';
import type { RevocationActor, Revoker } from './revocations.js';
import type { SessionStore } from './session-store.js';

type Tx = Pick<Db, 'execute'>;

/**
 * After a password change or reset, the account's sessions end. Inside the RevocationBook's
 * transaction `r`: every live session of `ownerId` is revoked, recorded and announced
 * (identity.session_revoked), refused by this process before the answer and by every other one when the
 * event arrives. With `cutOffTokens`, every token issued to the account so far is refused as well
 * (identity.subject_access_revoked): for a reset, where no session of the caller is kept. Returns the
 * ids of the sessions ended.
 */
export async function endEverySession(
  tx: Tx,
  r: Revoker,
  o: { sessions: SessionStore; ownerId: string; actor: RevocationActor; cutOffTokens: boolean },
): Promise<string[]> {
  const { actor } = o;
  const ids = await o.sessions.revokeOthersOf(tx, r, o.ownerId, null, actor);
  if (o.cutOffTokens) await r.subject(o.ownerId, actor);
  return ids;
}
