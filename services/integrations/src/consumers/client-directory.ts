import { subscribeClientDirectory as subscribeDirectory, type ConsumerRuntime } from '@countinghouse/kit';
import { clientDirectory, SCHEMA } from '../db/schema.js';

export const CLIENT_DIRECTORY_CONSUMER = 'integrations.client-directory';

/**
 * crm.client_upserted → which client record belongs to which person (and accountant): the kit's client
 * directory consumer, the common columns alone. The kit checks each event against its proto schema and
 * records its id, so a malformed one is skipped and a redelivered one changes nothing; an older event
 * arriving late never overwrites a newer one.
 */
export async function subscribeClientDirectory(runtime: ConsumerRuntime): Promise<void> {
  await subscribeDirectory(runtime, { group: CLIENT_DIRECTORY_CONSUMER, schema: SCHEMA, table: clientDirectory, extra: () => ({}) });
}
