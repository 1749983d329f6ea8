import { clientDirectoryRow, subscribe, upsertClientDirectory, type Runtime } from '@countinghouse/kit';
import { markDeadlineDone, replaceClientDeadlines } from '../db/queries.js';
import { clientDirectory, SCHEMA } from '../db/schema.js';

export const REQUESTS_DIRECTORY_CONSUMER = 'requests.directory';

/**
 * crm.client_upserted → who owns a client and who is their accountant (access, the assignee of a
 * request opened ahead of a deadline, the address the chase goes to); deadlines.client_deadlines and
 * deadlines.deadline_done → the deadlines the daily job opens requests ahead of. Once per event id.
 */
export async function subscribeDirectory(runtime: Runtime): Promise<void> {
  await subscribe(runtime, {
    group: REQUESTS_DIRECTORY_CONSUMER,
    schema: SCHEMA,
    types: ['crm.client_upserted', 'deadlines.client_deadlines', 'deadlines.deadline_done'],
    handler: async (event, tx) => {
      if (event.type === 'crm.client_upserted') {
        // the kit's client directory, with the contact's address
        await upsertClientDirectory(tx, clientDirectory, { ...clientDirectoryRow(event), contactEmail: event.data.contactEmail });
      } else if (event.type === 'deadlines.client_deadlines') {
        await replaceClientDeadlines(tx, event.data.clientId, event.data.deadlines);
      } else if (event.type === 'deadlines.deadline_done') {
        await markDeadlineDone(tx, event.data.deadlineId);
      }
    },
  });
}
