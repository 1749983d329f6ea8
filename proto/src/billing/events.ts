import { Type, type Static } from '@sinclair/typebox';

// billing's HTTP contracts and catalogue ride on this module's line in proto's index.
export * from './billing.js';
export * from './packages.js';

/**
 * What every billing event says about the subscription, so a consumer (crm's clients) can apply
 * any of them alone, in any order of delivery: it carries the whole current state.
 */
const SubscriptionState = {
  subscriptionId: Type.String(),
  userId: Type.String(),
  email: Type.String(),
  packageName: Type.String(),
  /** GBP per month. */
  monthlyFee: Type.Number(),
  status: Type.Union([Type.Literal('active'), Type.Literal('pending'), Type.Literal('cancelled'), Type.Literal('overdue')]),
  /** ISO date-time of the end of the paid period (the next billing date), when known. */
  currentPeriodEnd: Type.Union([Type.String(), Type.Null()]),
  provider: Type.Union([Type.Literal('stripe'), Type.Literal('test')]),
};

/**
 * A verified payment started a subscription (checkout completed). The name and company the person
 * typed at sign-up (null when none was given) go with it, so the new client record starts with them.
 */
export const SubscriptionActivatedSchema = Type.Object({
  ...SubscriptionState,
  checkoutSessionId: Type.String(),
  contactName: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  companyName: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** Issue 33: the business type, company number and phone given at sign-up. */
  businessType: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  companyNumber: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  phone: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
/**
 * The subscription changed: renewed (invoice paid), status or period moved at the provider, or the
 * package changed (previousPackageName differs from packageName: an upgrade or downgrade).
 */
export const SubscriptionUpdatedSchema = Type.Object({
  ...SubscriptionState,
  reason: Type.Union([Type.Literal('renewed'), Type.Literal('package_changed'), Type.Literal('provider_update')]),
  previousPackageName: Type.Union([Type.String(), Type.Null()]),
});
/** A renewal payment failed: the subscription is overdue. */
export const PaymentFailedSchema = Type.Object({
  ...SubscriptionState,
  invoiceId: Type.Union([Type.String(), Type.Null()]),
  amount: Type.Number(),
});
export const SubscriptionCancelledSchema = Type.Object(SubscriptionState);

export type SubscriptionEventData = Static<typeof SubscriptionCancelledSchema>;

export const BILLING_EVENTS = {
  'billing.subscription_activated': SubscriptionActivatedSchema,
  'billing.subscription_updated': SubscriptionUpdatedSchema,
  'billing.payment_failed': PaymentFailedSchema,
  'billing.subscription_cancelled': SubscriptionCancelledSchema,
} as const;
