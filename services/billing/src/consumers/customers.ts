import { idempotent, type Runtime } from '@countinghouse/kit';
import { TOPICS, type EventData } from '@countinghouse/proto';
import { upsertCustomer } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';

/**
 * What billing publishes and consumes.
 *
 * Publishes (outbox, in the transaction of the change; key = user id):
 * - billing.subscription_activated: a checkout was paid and verified (crm upserts the client as active).
 * - billing.subscription_updated: renewed, package changed (crm records a client_upgrades row), or
 *   changed at the provider.
 * - billing.payment_failed: the subscription is overdue.
 * - billing.subscription_cancelled.
 *
 * Consumes:
 * - identity.user_registered → billing.customers (the e-mail address the client record and Stripe need,
 *   and the name and company typed at sign-up, for the new client record).
 */
export async function subscribeBillingConsumers(runtime: Runtime): Promise<void> {
  await runtime.bus.subscribe({
    group: 'billing.customers',
    topics: [TOPICS.identity],
    handler: idempotent(runtime.db, SCHEMA, 'billing.customers', async (envelope, tx) => {
      if (envelope.type !== 'identity.user_registered') return;
      const d = envelope.data as EventData<'identity.user_registered'>;
      const name = [d.firstName?.trim(), d.lastName?.trim()].filter(Boolean).join(' ') || null;
      const companyName = d.companyName?.trim() || null;
      await upsertCustomer(tx, { userId: d.userId, email: d.email.toLowerCase(), name, companyName });
    }),
  });
}
