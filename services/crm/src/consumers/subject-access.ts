import { enqueueEvent, subscribe, type Runtime } from '@countinghouse/kit';
import { subjectOf } from '@countinghouse/proto';
import { getClient } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';

/**
 * records.subject_access_requested (UK GDPR Art. 15, issue 34): the business profile of the client the
 * person signs in for, if it is theirs (its user_id), or the contact's details; nothing of any other client.
 */
export async function subscribeSubjectAccess(runtime: Runtime): Promise<void> {
  await subscribe(runtime, {
    group: 'crm.subject-access',
    schema: SCHEMA,
    types: ['records.subject_access_requested'],
    handler: async (event, tx) => {
      const d = event.data;
      const s = subjectOf(d);
      const client = await getClient(tx, d.clientId);
      const json = (path: string, v: unknown) => ({ path, base64: Buffer.from(JSON.stringify(v, null, 2), 'utf8').toString('base64') });
      // A client user: the profile of the client they sign in for. The client's contact: the contact details
      // crm keeps of them. A director or PSC: nothing here (the company's profile is not theirs).
      const files = !client
        ? []
        : s.kind === 'client_user'
          ? s.userId && client.user_id === s.userId
            ? [json('profile.json', client)]
            : []
          : s.kind === 'contact'
            ? [
                json('contact.json', {
                  company: client.company_name,
                  name: client.contact_name,
                  email: client.contact_email,
                  phone: client.contact_phone,
                }),
              ]
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
