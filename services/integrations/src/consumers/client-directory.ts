import { subscribe, type ConsumerRuntime } from '@countinghouse/kit';
import { upsertDirectoryEntry } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';

export const CLIENT_DIRECTORY_CONSUMER = 'integrations.client-directory';

/**
 * crm.client_upserted → which client record belongs to which person (and accountant). The kit checks
 * each event against its proto schema and records its id, so a malformed one is skipped and a
 * redelivered one changes nothing; an older event arriving late never overwrites a newer one.
 */
export async function subscribeClientDirectory(runtime: ConsumerRuntime): Promise<void> {
  await subscribe(runtime, {
    group: CLIENT_DIRECTORY_CONSUMER,
    types: ['crm.client_upserted'],
    schema: SCHEMA,
    handler: async ({ data: d, occurredAt }, tx) =>
      upsertDirectoryEntry(tx, {
        clientId: d.clientId,
        userId: d.userId,
        companyName: d.companyName,
        assignedAccountantId: d.assignedAccountantId,
        sourceAt: new Date(occurredAt),
      }),
  });
}
