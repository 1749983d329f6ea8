import { enqueueEvent, subscribe, type Runtime } from '@countinghouse/kit';
import { getClient } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';

/**
 * records.subject_access_requested (UK GDPR Art. 15, issue 34): the business profile of the client the
 * person signs in for, if it is theirs (its user_id); nothing of any other client.
 */
export async function subscribeSubjectAccess(runtime: Runtime): Promise<void> {
  await subscribe(runtime, {
    group: 'crm.subject-access',
    schema: SCHEMA,
    types: ['records.subject_access_requested'],
    handler: async (event, tx) => {
      const d = event.data;
      const client = await getClient(tx, d.clientId);
      const files =
        client && client.user_id === d.userId
          ? [{ path: 'profile.json', base64: Buffer.from(JSON.stringify(client, null, 2), 'utf8').toString('base64') }]
          : [];
      await enqueueEvent(
        tx,
        SCHEMA,
        'crm.subject_access_part',
        { requestId: d.requestId, files, last: true },
        { actor: event.actor, key: d.requestId },
      );
    },
  });
}
