import { subscribe, type Runtime } from '@countinghouse/kit';
import { SCHEMA } from '../db/schema.js';
import type { Mailer } from '../adapters/mailer.js';

export const ENGAGEMENT_MAIL_CONSUMER = 'identity.engagement-mail';

/**
 * engagement.letter_reminder → an e-mail through the practice's one mail path (SMTP when configured,
 * else the outgoing-mail log admins read), once per event id.
 */
export async function subscribeEngagementMail(runtime: Runtime, mailer: Mailer): Promise<void> {
  await subscribe(runtime, {
    group: ENGAGEMENT_MAIL_CONSUMER,
    schema: SCHEMA,
    types: ['engagement.letter_reminder'],
    handler: async (event) => {
      await mailer.send({ to: event.data.to, subject: event.data.subject, text: event.data.text });
    },
  });
}
