import { idempotent, type Runtime } from '@countinghouse/kit';
import { LetterReminderSchema, TOPICS, type EventData } from '@countinghouse/proto';
import { Value } from '@sinclair/typebox/value';
import { SCHEMA } from './db/schema.js';
import type { Mailer } from './mailer.js';

export const ENGAGEMENT_MAIL_CONSUMER = 'identity.engagement-mail';

/**
 * engagement.letter_reminder → an e-mail through the practice's one mail path (SMTP when configured,
 * else the outgoing-mail log admins read), once per event id.
 */
export async function subscribeEngagementMail(runtime: Runtime, mailer: Mailer): Promise<void> {
  const apply = idempotent(runtime.db, SCHEMA, ENGAGEMENT_MAIL_CONSUMER, async (envelope) => {
    const d = envelope.data as EventData<'engagement.letter_reminder'>;
    await mailer.send({ to: d.to, subject: d.subject, text: d.text });
  });
  await runtime.bus.subscribe({
    group: ENGAGEMENT_MAIL_CONSUMER,
    topics: [TOPICS.engagement],
    handler: async (envelope) => {
      if (envelope.type !== 'engagement.letter_reminder') return;
      if (!Value.Check(LetterReminderSchema, envelope.data)) {
        runtime.logger.error({ eventId: envelope.id }, 'bad engagement.letter_reminder skipped');
        return;
      }
      await apply(envelope);
    },
  });
}
