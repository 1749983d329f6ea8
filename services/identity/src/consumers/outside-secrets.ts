import { subscribe, type ConsumerRuntime } from '@countinghouse/kit';
import { sql } from 'drizzle-orm';
import { SCHEMA } from '../db/schema.js';

export const OUTSIDE_SECRETS_CONSUMER = 'identity.outside-secrets';

/**
 * deadlines.calendar_feed_changed → identity.outside_secrets, so the leaver view can list a calendar
 * feed a person still holds (and shows nothing once deadlines has removed it).
 */
export async function subscribeOutsideSecrets(runtime: ConsumerRuntime): Promise<void> {
  await subscribe(runtime, {
    group: OUTSIDE_SECRETS_CONSUMER,
    schema: SCHEMA,
    types: ['deadlines.calendar_feed_changed'],
    handler: async ({ data: d, occurredAt }, tx) => {
      if (d.active) {
        await tx.execute(sql`
          insert into identity.outside_secrets (service, kind, principal_id, since)
          values ('deadlines', 'calendar_feed', ${d.principalId}, ${d.since ?? occurredAt})
          on conflict (service, kind, principal_id) do update set since = greatest(identity.outside_secrets.since, excluded.since)`);
      } else {
        await tx.execute(sql`
          delete from identity.outside_secrets where service = 'deadlines' and kind = 'calendar_feed' and principal_id = ${d.principalId}`);
      }
    },
  });
}
