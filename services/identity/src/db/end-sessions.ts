import { enqueueEvent, type Db } from '@countinghouse/kit';
import { SESSION, type Actor } from '@countinghouse/proto';
import { SCHEMA } from './schema.js';
import type { SessionStore } from './session-store.js';

// After a password change or reset, the account's sessions end. This is the one place the password
// code calls the session store's revocation (db/session-store.ts is being reworked in parallel: a
// merge adapts these few lines only).

type Tx = Pick<Db, 'execute'>;

/**
 * Inside `tx`: revoke every session of `ownerId` and announce each one (identity.session_revoked), so
 * every service and gateway refuses its still-unexpired access tokens at once. With `cutOffTokens`,
 * every token issued to the account so far is refused as well (identity.subject_access_revoked): for a
 * reset, where no session of the caller is kept. Returns the ids of the sessions ended.
 */
export async function endEverySession(
  tx: Tx,
  o: { sessions: SessionStore; ownerId: string; actor: Actor; cutOffTokens: boolean },
): Promise<string[]> {
  const ids = await o.sessions.revokeAllOf(tx, o.ownerId);
  const until = Math.floor(Date.now() / 1000) + SESSION.accessTokenSeconds + 60;
  for (const sessionId of ids) {
    await enqueueEvent(
      tx,
      SCHEMA,
      'identity.session_revoked',
      { sessionId, subjectId: o.ownerId, until },
      { actor: o.actor, key: o.ownerId },
    );
  }
  if (o.cutOffTokens) {
    await enqueueEvent(
      tx,
      SCHEMA,
      'identity.subject_access_revoked',
      { subjectId: o.ownerId, issuedBefore: Math.floor(Date.now() / 1000) + 1 },
      { actor: o.actor, key: o.ownerId },
    );
  }
  return ids;
}
