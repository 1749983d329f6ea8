import { subscribe, type ConsumerRuntime } from '@countinghouse/kit';
import { findUserById } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { reconnectEmail } from '../domain/reconnect-mail.js';
import type { Mailer } from '../adapters/mailer.js';

export const RECONNECT_MAIL_CONSUMER = 'identity.reconnect-mail';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * integrations.sync_failed with needs_reconnect → one e-mail to the client's sign-in account (SMTP when
 * configured, else the outgoing-mail log), once per event id. The practice's admins are told by the
 * notifications service; this is the client's half.
 */
export async function subscribeReconnectMail(
  runtime: ConsumerRuntime,
  o: { mailer: Mailer; publicUrl: string; practiceName: () => string },
): Promise<void> {
  await subscribe(runtime, {
    group: RECONNECT_MAIL_CONSUMER,
    schema: SCHEMA,
    types: ['integrations.sync_failed'],
    handler: async (event, tx) => {
      const d = event.data;
      if (d.reason !== 'needs_reconnect' || !d.clientUserId || !UUID.test(d.clientUserId)) return;
      const user = await findUserById(tx, d.clientUserId);
      if (!user) return;
      const url = `${o.publicUrl.replace(/\/+$/, '')}/integrations`;
      await o.mailer.send({ to: user.email, ...reconnectEmail({ practiceName: o.practiceName(), provider: d.integrationType, url }) });
    },
  });
}
