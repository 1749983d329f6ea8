import { subscribe, type ConsumerRuntime } from '@countinghouse/kit';
import { recordAcceptedTerms, upsertCustomer } from '../db/queries.js';
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
 * - engagement.terms_accepted → billing.accepted_terms (a checkout needs the package's letter signed).
 */
export async function subscribeBillingConsumers(runtime: ConsumerRuntime): Promise<void> {
  await subscribe(runtime, {
    group: 'billing.customers',
    types: ['identity.user_registered'],
    schema: SCHEMA,
    handler: async ({ data: d }, tx) => {
      const name = [d.firstName?.trim(), d.lastName?.trim()].filter(Boolean).join(' ') || null;
      const companyName = d.companyName?.trim() || null;
      await upsertCustomer(tx, {
        userId: d.userId,
        email: d.email.toLowerCase(),
        name,
        companyName,
        businessType: d.businessType ?? null,
        companyNumber: d.companyNumber ?? null,
        phone: d.phone ?? null,
      });
    },
  });
  // Terms before payment (issue 33): which packages each person has accepted the letter for.
  await subscribe(runtime, {
    group: 'billing.terms',
    types: ['engagement.terms_accepted'],
    schema: SCHEMA,
    handler: async ({ data: d }, tx) => {
      await recordAcceptedTerms(tx, {
        userId: d.userId,
        packageName: d.packageName,
        letterId: d.letterId,
        version: d.version,
        signedAt: new Date(d.signedAt),
      });
    },
  });
}
