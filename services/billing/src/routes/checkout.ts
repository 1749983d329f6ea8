import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  ChangePackageBodySchema,
  CheckoutBodySchema,
  CheckoutReplySchema,
  PACKAGE_CATALOGUE,
  PackageListSchema,
  SessionIdSchema,
  SubscriptionCheckSchema,
  TestCheckoutSessionSchema,
  VerifyBodySchema,
  VerifyReplySchema,
  type TestCheckoutSession,
  vatLines,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type { SessionRow } from '../db/queries.js';
import { getTestCheckout, payTestCheckout, startCheckout, verifyCheckout } from '../use-cases/checkout.js';
import type { BillingDeps } from '../use-cases/deps.js';
import { changePackage, checkSubscription } from '../use-cases/subscriptions.js';
import { errors } from './shared.js';
import { chargedRate } from '../use-cases/vat.js';

/** People (not admin sessions) pay for and hold subscriptions. */
const person = requireRole([], { kind: 'user' });
const SessionParams = Type.Object({ id: SessionIdSchema });

function testSession(s: SessionRow): TestCheckoutSession {
  return {
    session_id: s.id,
    package_name: s.packageName,
    monthly_fee: s.monthlyFee,
    ...((l) => ({ vat_rate: l.rate, vat: l.vat, gross: l.gross }))(vatLines(Number(s.monthlyFee), Number(s.vatRate))),
    status: s.status === 'completed' ? 'completed' : s.status === 'paid' ? 'paid' : 'open',
    success_url: `/payment-success?session_id=${s.id}`,
    cancel_url: '/package-selection',
  };
}

export function checkoutRoutes(app: App, d: BillingDeps) {
  app.get(
    '/packages',
    { schema: { tags: ['billing'], summary: 'The package catalogue (public)', response: { 200: PackageListSchema } } },
    async (_request, reply) => {
      // Short: a change of VAT registration shows on the prices soon after.
      reply.header('cache-control', 'public, max-age=60');
      return {
        packages: PACKAGE_CATALOGUE.map((p) => ({
          name: p.name,
          monthly_fee: p.monthlyFee,
          summary: p.summary,
          features: [...p.features],
          is_featured: p.isFeatured,
        })),
        provider: d.provider.kind,
        vat_rate: await chargedRate(d.db),
      };
    },
  );

  app.post(
    '/checkout',
    {
      preHandler: person,
      schema: {
        tags: ['billing'],
        summary: 'Start a checkout for a package: Stripe Checkout (subscription mode) or the built-in test checkout',
        body: CheckoutBodySchema,
        response: { 200: CheckoutReplySchema, ...errors },
      },
    },
    async (request) => {
      const p = requireAuth(request);
      const body = request.body;
      return startCheckout(d, { userId: p.id, emailHint: p.name.includes('@') ? p.name : null, packageName: body.package_name });
    },
  );

  app.post(
    '/verify',
    {
      preHandler: person,
      schema: {
        tags: ['billing'],
        summary: 'Verify a checkout session (the payment-success page); idempotent',
        body: VerifyBodySchema,
        response: { 200: VerifyReplySchema, ...errors },
      },
    },
    async (request) => {
      const p = requireAuth(request);
      return verifyCheckout(d, p.id, request.body.session_id);
    },
  );

  app.get(
    '/subscription',
    {
      preHandler: person,
      schema: {
        tags: ['billing'],
        summary: 'check-subscription: subscribed, package_name, subscription_end for the signed-in person',
        response: { 200: SubscriptionCheckSchema, ...errors },
      },
    },
    async (request) => checkSubscription(d, requireAuth(request).id),
  );

  app.post(
    '/subscription/package',
    {
      preHandler: person,
      schema: {
        tags: ['billing'],
        summary: 'Upgrade or downgrade the package (prorated by Stripe when configured)',
        body: ChangePackageBodySchema,
        response: { 200: SubscriptionCheckSchema, ...errors },
      },
    },
    async (request) => changePackage(d, requireAuth(request).id, request.body.package_name),
  );

  app.get(
    '/test-checkout/:id',
    {
      preHandler: person,
      schema: {
        tags: ['billing'],
        summary: 'A session of the built-in test checkout (only without Stripe)',
        params: SessionParams,
        response: { 200: TestCheckoutSessionSchema, ...errors },
      },
    },
    async (request) => testSession(await getTestCheckout(d, requireAuth(request).id, request.params.id)),
  );

  app.post(
    '/test-checkout/:id/pay',
    {
      preHandler: person,
      schema: {
        tags: ['billing'],
        summary: 'Pay a test checkout session: no card, no money (only without Stripe)',
        params: SessionParams,
        response: { 200: TestCheckoutSessionSchema, ...errors },
      },
    },
    async (request) => testSession(await payTestCheckout(d, requireAuth(request).id, request.params.id)),
  );
}
