import { AppError, type App } from '@countinghouse/kit';
import { BILLING_MESSAGES } from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type Stripe from 'stripe';
import { StripeProvider } from '../adapters/payment-providers.js';
import type { BillingDeps } from '../use-cases/deps.js';
import { handleStripeEvent } from '../use-cases/stripe-events.js';
import { errors } from './shared.js';

const WebhookReplySchema = Type.Object({ received: Type.Boolean(), duplicate: Type.Boolean() });

/**
 * POST /webhooks/stripe. Public at the gateway: the signature is the authentication. The signature is
 * over the exact bytes Stripe sent, so this route (in its own encapsulated scope) keeps the raw body.
 */
export async function webhookRoutes(app: App, d: BillingDeps) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1_048_576 }, (_request, body, done) => done(null, body));
    scope.post(
      '/webhooks/stripe',
      {
        schema: {
          tags: ['billing'],
          summary: "Stripe's webhook: signature checked, each event processed once",
          response: { 200: WebhookReplySchema, ...errors },
        },
      },
      async (request) => {
        // (kind 'stripe' is the StripeProvider: the plugin makes no other)
        const provider = d.provider;
        if (!(provider instanceof StripeProvider)) throw new AppError('NOT_CONFIGURED', BILLING_MESSAGES.stripeNotConfigured);
        const signature = request.headers['stripe-signature'];
        const raw = request.body;
        if (typeof signature !== 'string' || !Buffer.isBuffer(raw)) throw new AppError('BAD_REQUEST', BILLING_MESSAGES.badSignature);
        let event: Stripe.Event;
        try {
          event = provider.constructEvent(raw, signature);
        } catch {
          throw new AppError('BAD_REQUEST', BILLING_MESSAGES.badSignature);
        }
        const fresh = await handleStripeEvent({ ...d, provider }, event);
        request.log.info({ stripeEvent: event.id, type: event.type, duplicate: !fresh }, 'stripe webhook');
        return { received: true, duplicate: !fresh };
      },
    );
  });
}
