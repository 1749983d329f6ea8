import { enqueueEvent, subscribe, type ConsumerRuntime } from '@countinghouse/kit';
import { removeCalendarTokenIssuedBefore } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';

export const LEAVERS_CONSUMER = 'deadlines.leavers';

/**
 * identity.subject_access_revoked (a deactivation, a revoked role, a password reset, an admin panel
 * account deactivated) → the person's calendar feed made before that instant is deleted, so its secret
 * address answers 404 for good, and deadlines.calendar_feed_changed tells identity's "still reach" view.
 * (Until this runs, renderFeed already refuses it through the revocation list.)
 */
export async function subscribeLeavers(runtime: ConsumerRuntime): Promise<void> {
  await subscribe(runtime, {
    group: LEAVERS_CONSUMER,
    types: ['identity.subject_access_revoked'],
    schema: SCHEMA,
    handler: async ({ data: d }, tx) => {
      const removed = await removeCalendarTokenIssuedBefore(tx, d.subjectId, d.issuedBefore);
      if (removed)
        await enqueueEvent(
          tx,
          SCHEMA,
          'deadlines.calendar_feed_changed',
          { principalId: d.subjectId, active: false, since: null },
          { actor: { kind: 'system', id: null }, key: d.subjectId },
        );
    },
  });
}
