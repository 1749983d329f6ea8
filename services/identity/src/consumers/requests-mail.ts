import { subscribe, type Runtime } from '@countinghouse/kit';
import { SCHEMA } from '../db/schema.js';
import type { Mailer } from '../adapters/mailer.js';

export const REQUESTS_MAIL_CONSUMER = 'identity.requests-mail';

/**
 * requests.reminder_sent (the chase of a client request) and requests.message_posted's notice (that a
 * secure message arrived, never its content) → an e-mail through the practice's one mail path, once
 * per event id.
 */
export async function subscribeRequestsMail(runtime: Runtime, mailer: Mailer): Promise<void> {
  await subscribe(runtime, {
    group: REQUESTS_MAIL_CONSUMER,
    schema: SCHEMA,
    types: ['requests.reminder_sent', 'requests.message_posted'],
    handler: async (event) => {
      if (event.type === 'requests.reminder_sent') {
        await mailer.send({ to: event.data.to, subject: event.data.subject, text: event.data.text });
      } else if (event.data.notice) {
        await mailer.send(event.data.notice);
      }
    },
  });
}
