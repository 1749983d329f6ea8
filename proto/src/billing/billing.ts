import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PACKAGES, SUBSCRIPTION_STATUSES, type Role } from '../constants.js';
import { rolesFor } from '../permissions.js';

const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const DateTime = Type.String({ format: 'date-time' });

export const BILLING_PROVIDERS = ['stripe', 'test'] as const;
export type BillingProvider = (typeof BILLING_PROVIDERS)[number];
export const BillingProviderSchema = Type.Union(BILLING_PROVIDERS.map((p) => Type.Literal(p)));

export const PackageNameSchema = Type.Union(PACKAGES.map((p) => Type.Literal(p.name)));
export const BillingStatusSchema = Type.Union(SUBSCRIPTION_STATUSES.map((s) => Type.Literal(s)));

/** HTTP routes of billing, under the gateway. */
export const BILLING_ROUTES = {
  /** Public: the catalogue. */
  packages: '/api/billing/packages',
  checkout: '/api/billing/checkout',
  /** The payment-success page: server-side, idempotent check of a checkout session. */
  verify: '/api/billing/verify',
  /** check-subscription (spec section 7). */
  subscription: '/api/billing/subscription',
  changePackage: '/api/billing/subscription/package',
  /** The built-in test checkout (only when Stripe is not configured). */
  testCheckout: (sessionId: string) => `/api/billing/test-checkout/${encodeURIComponent(sessionId)}`,
  testCheckoutPay: (sessionId: string) => `/api/billing/test-checkout/${encodeURIComponent(sessionId)}/pay`,
  /** Public at the gateway; Stripe signs it. */
  stripeWebhook: '/api/billing/webhooks/stripe',
  adminSubscriptions: '/api/billing/admin/subscriptions',
  adminSummary: '/api/billing/admin/summary',
  /** The practice's monthly revenue (the one definition, for the control panel and staff portal). */
  revenue: '/api/billing/revenue',
  /** Issue 33: the practice's VAT registration (GET public, PUT administrators). */
  vat: '/api/billing/vat',
  /** The signed-in client's VAT invoices, and one invoice's PDF (the client or the practice's staff). */
  invoices: '/api/billing/invoices',
  invoicePdf: (id: string) => `/api/billing/invoices/${encodeURIComponent(id)}/pdf`,
  adminInvoices: '/api/billing/admin/invoices',
} as const;

/**
 * Monthly revenue, one definition everywhere (control panel, staff portal, /admin/billing, Reports):
 * the monthly fees of subscriptions that are active now. Overdue subscriptions' fees are shown apart
 * (owed, not being received); pending and cancelled ones count nowhere. docs/decisions.md.
 */
export const MONTHLY_REVENUE_LABEL = 'Monthly Revenue';
/** The control panel's note for it (spec section 9, word for word). */
export const MONTHLY_REVENUE_NOTE = 'Recurring income';
/** What it counts, said where the figure is explained (Billing, Reports). */
export const MONTHLY_REVENUE_DEFINITION = 'Recurring income: the monthly fees of active subscriptions';

export const MonthlyRevenueSchema = Type.Object({
  /** Sum of the monthly fees of active subscriptions, GBP. */
  monthly_revenue: Type.Number(),
  active_subscriptions: Type.Integer({ minimum: 0 }),
  /** Sum of the monthly fees of overdue subscriptions (not in monthly_revenue), GBP. */
  overdue_fees: Type.Number(),
  overdue_subscriptions: Type.Integer({ minimum: 0 }),
});
export type MonthlyRevenue = Static<typeof MonthlyRevenueSchema>;

/** The roles that see the practice's billing (/admin/billing). */
export const BILLING_ADMIN_ROLES: readonly Role[] = rolesFor('billing.manage');

export const PackageSchema = Type.Object({
  name: PackageNameSchema,
  monthly_fee: Type.Number(),
  summary: Type.String(),
  features: Type.Array(Type.String()),
  is_featured: Type.Boolean(),
});
export type Package = Static<typeof PackageSchema>;
export const PackageListSchema = Type.Object({
  packages: Type.Array(PackageSchema),
  provider: BillingProviderSchema,
  /** Issue 33: the VAT rate added to every price, percent; 0 when the practice is not VAT-registered. */
  vat_rate: Type.Optional(Type.Number()),
});
export type PackageList = Static<typeof PackageListSchema>;

export const CheckoutBodySchema = Type.Object({ package_name: PackageNameSchema }, { additionalProperties: false });
export type CheckoutBody = Static<typeof CheckoutBodySchema>;
/** Where to send the browser: Stripe's hosted page, or the built-in test checkout (a path on this site). */
export const CheckoutReplySchema = Type.Object({ url: Type.String(), session_id: Type.String(), provider: BillingProviderSchema });
export type CheckoutReply = Static<typeof CheckoutReplySchema>;

export const SessionIdSchema = Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_]+$' });
export const VerifyBodySchema = Type.Object({ session_id: SessionIdSchema }, { additionalProperties: false });
export type VerifyBody = Static<typeof VerifyBodySchema>;
export const VerifyReplySchema = Type.Object({
  success: Type.Boolean(),
  package_name: PackageNameSchema,
  monthly_fee: Type.Number(),
  features: Type.Array(Type.String()),
  subscription_status: BillingStatusSchema,
  subscription_end: Nullable(DateTime),
  provider: BillingProviderSchema,
  /**
   * True while a delayed payment method (Bacs Direct Debit, SEPA) is still being processed: the
   * checkout is complete, the money not yet confirmed; success is false and the subscription not yet
   * active. Stripe's checkout.session.async_payment_succeeded activates it later.
   */
  payment_processing: Type.Optional(Type.Boolean()),
});
export type VerifyReply = Static<typeof VerifyReplySchema>;

/** check-subscription: the spec's three fields, plus what the dashboard shows. */
export const SubscriptionCheckSchema = Type.Object({
  subscribed: Type.Boolean(),
  package_name: Nullable(Type.String()),
  subscription_end: Nullable(DateTime),
  status: Nullable(BillingStatusSchema),
  monthly_fee: Nullable(Type.Number()),
  provider: Nullable(BillingProviderSchema),
});
export type SubscriptionCheck = Static<typeof SubscriptionCheckSchema>;

export const ChangePackageBodySchema = Type.Object({ package_name: PackageNameSchema }, { additionalProperties: false });
export type ChangePackageBody = Static<typeof ChangePackageBodySchema>;

export const TestCheckoutSessionSchema = Type.Object({
  session_id: Type.String(),
  package_name: PackageNameSchema,
  monthly_fee: Type.Number(),
  /** Issue 33: the lines the payment shows: net + VAT at the rate = gross (the rate 0 when not registered). */
  vat_rate: Type.Optional(Type.Number()),
  vat: Type.Optional(Type.Number()),
  gross: Type.Optional(Type.Number()),
  status: Type.Union([Type.Literal('open'), Type.Literal('paid'), Type.Literal('completed')]),
  success_url: Type.String(),
  cancel_url: Type.String(),
});
export type TestCheckoutSession = Static<typeof TestCheckoutSessionSchema>;

export const AdminSubscriptionSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  user_id: Type.String({ format: 'uuid' }),
  email: Type.String(),
  package_name: Type.String(),
  monthly_fee: Type.Number(),
  status: BillingStatusSchema,
  provider: BillingProviderSchema,
  provider_subscription_id: Nullable(Type.String()),
  current_period_end: Nullable(DateTime),
  created_at: DateTime,
  updated_at: DateTime,
});
export type AdminSubscription = Static<typeof AdminSubscriptionSchema>;

export const AdminSubscriptionQuerySchema = Type.Object(
  {
    status: Type.Optional(BillingStatusSchema),
    page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
    page_size: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  },
  { additionalProperties: false },
);
export type AdminSubscriptionQuery = Static<typeof AdminSubscriptionQuerySchema>;
export const AdminSubscriptionListSchema = Type.Object({
  subscriptions: Type.Array(AdminSubscriptionSchema),
  total: Type.Integer({ minimum: 0 }),
  page: Type.Integer({ minimum: 1 }),
  page_size: Type.Integer({ minimum: 1 }),
});
export type AdminSubscriptionList = Static<typeof AdminSubscriptionListSchema>;

export const FailedPaymentSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  subscription_id: Type.String({ format: 'uuid' }),
  email: Type.String(),
  package_name: Type.String(),
  amount: Type.Number(),
  provider_invoice_id: Nullable(Type.String()),
  occurred_at: DateTime,
});
export type FailedPayment = Static<typeof FailedPaymentSchema>;

/** The /admin/billing figures. `mrr` is the monthly revenue (MonthlyRevenueSchema); overdue fees apart. */
export const BillingSummarySchema = Type.Object({
  mrr: Type.Number(),
  overdue_fees: Type.Number(),
  active: Type.Integer({ minimum: 0 }),
  overdue: Type.Integer({ minimum: 0 }),
  cancelled: Type.Integer({ minimum: 0 }),
  pending: Type.Integer({ minimum: 0 }),
  /** Payments received in the last 30 days, GBP. */
  collected_30d: Type.Number(),
  failed_payments: Type.Array(FailedPaymentSchema),
  provider: BillingProviderSchema,
});
export type BillingSummary = Static<typeof BillingSummarySchema>;

/** Texts of billing that the spec does not give (ours). */
export const BILLING_MESSAGES = {
  paymentNotCompleted: 'This payment has not been completed.',
  paymentProcessing:
    'Your payment is being processed. Direct Debit payments can take a few working days to confirm; your subscription starts as soon as it does, and nothing more is needed from you.',
  paymentFailed: 'Your payment did not go through. Please choose your package again and use another payment method.',
  alreadySubscribed: 'You already have a subscription. Change your package from your dashboard.',
  termsNotAccepted: (pkg: string) =>
    `Please read and accept the engagement letter for the ${pkg} package before paying. Nothing has been charged.`,
  noSubscription: 'You do not have a subscription yet.',
  samePackage: 'You are already on this package.',
  sessionNotFound: 'Checkout session not found',
  stripeNotConfigured: 'Stripe is not configured.',
  badSignature: 'The webhook signature is not valid.',
  providerUnavailable: 'The payment provider could not be reached. Please try again.',
  testCheckoutNotice: 'This is a test checkout: no card is charged and no money moves.',
} as const;
