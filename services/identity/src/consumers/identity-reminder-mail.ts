import { subscribe, type Runtime } from '@countinghouse/kit';
import { SCHEMA } from '../db/schema.js';
import type { Mailer } from '../adapters/mailer.js';

export const IDENTITY_REMINDER_MAIL_CONSUMER = 'identity.identity-reminder-mail';

/**
 * deadlines.identity_reminder → the e-mail to the client's contact that one of their directors or PSCs
 * must verify their identity with Companies House, through the practice's one mail path, once per event
 * id (deadlines raises one event per person and due date).
 */
export async function subscribeIdentityReminderMail(runtime: Runtime, mailer: Mailer): Promise<void> {
  await subscribe(runtime, {
    group: IDENTITY_REMINDER_MAIL_CONSUMER,
    schema: SCHEMA,
    types: ['deadlines.identity_reminder'],
    handler: async (event) => {
      await mailer.send({ to: event.data.to, subject: event.data.subject, text: event.data.text });
    },
  });
}
