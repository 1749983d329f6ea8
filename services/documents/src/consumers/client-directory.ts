import { subscribeClientDirectory as subscribeDirectory, type ConsumerRuntime } from '@countinghouse/kit';
import { upsertDirectory } from '../db/queries.js';
import { clientDirectory, SCHEMA } from '../db/schema.js';

export const CLIENT_DIRECTORY_CONSUMER = 'documents.client-directory';

/**
 * crm.client_upserted → the client directory (the kit's consumer, with the contact's e-mail), written by
 * upsertDirectory so the documents' search text follows a changed name or e-mail; checked against proto
 * and applied once per event id by the kit.
 */
export async function subscribeClientDirectory(runtime: ConsumerRuntime): Promise<void> {
  await subscribeDirectory(runtime, {
    group: CLIENT_DIRECTORY_CONSUMER,
    schema: SCHEMA,
    table: clientDirectory,
    extra: (d) => ({ contactEmail: d.contactEmail }),
    write: upsertDirectory,
  });
}
