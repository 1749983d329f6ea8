import { AppError, errorMessage } from '@countinghouse/kit';
import { BILLING_MESSAGES, type BillingProvider, type PackageInfo } from '@countinghouse/proto';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { addOneMonth, fromUnix, TEST_SESSION_PREFIX, TEST_SUBSCRIPTION_PREFIX, toPence, unixAt } from '../domain/subscriptions.js';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another API address (stripe-mock in tests), e.g. http://127.0.0.1:12111. */
  apiBase?: string;
}

export interface CheckoutRequest {
  userId: string;
  email: string | null;
  pkg: PackageInfo;
  /** Absolute addresses Stripe sends the browser back to. */
  successUrl: string;
  cancelUrl: string;
  /** Issue 33: VAT to add, percent (0: none). Stripe charges it through a tax rate on the line. */
  vatRate?: number;
}

/** What the provider says about a paid checkout. */
export interface PaidCheckout {
  providerCustomerId: string | null;
  providerSubscriptionId: string | null;
  email: string | null;
  currentPeriodEnd: Date | null;
}

export interface SessionState {
  id: string;
  userId: string;
  status: string;
  providerCustomerId: string | null;
  providerSubscriptionId: string | null;
  paidAt: Date | null;
}

/**
 * The payment provider behind checkout. Everything after "the provider says it is paid" is the same
 * code for Stripe and the built-in test checkout (billing.ts completeCheckout).
 */
export interface PaymentProvider {
  readonly kind: BillingProvider;
  createCheckout(r: CheckoutRequest): Promise<{ id: string; url: string }>;
  /** The paid checkout; 'processing' while a delayed payment method is being confirmed; null while not paid. */
  checkPaid(session: SessionState): Promise<PaidCheckout | 'processing' | null>;
  /** End of the current period of a provider subscription, when the provider knows it. */
  periodEnd(providerSubscriptionId: string): Promise<Date | null>;
  /** Move a subscription to another package (Stripe prorates); returns the period end. */
  changePackage(providerSubscriptionId: string | null, pkg: PackageInfo, currentPeriodEnd: Date | null): Promise<Date | null>;
}

/**
 * Without Stripe: a checkout built into the product. The session is paid when the person presses Pay
 * on /checkout/test (no card, no money); verification then completes it like a Stripe session.
 */
export class TestProvider implements PaymentProvider {
  readonly kind = 'test' as const;
  async createCheckout(): Promise<{ id: string; url: string }> {
    const id = `${TEST_SESSION_PREFIX}${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x')}`;
    return { id, url: `/checkout/test?session_id=${id}` };
  }
  async checkPaid(s: SessionState): Promise<PaidCheckout | null> {
    if (s.status !== 'paid' && s.status !== 'completed') return null;
    return {
      providerCustomerId: null,
      providerSubscriptionId: s.providerSubscriptionId,
      email: null,
      currentPeriodEnd: addOneMonth(s.paidAt ?? new Date()),
    };
  }
  async periodEnd(): Promise<Date | null> {
    return null;
  }
  async changePackage(_id: string | null, _pkg: PackageInfo, currentPeriodEnd: Date | null): Promise<Date | null> {
    return currentPeriodEnd;
  }
  static newSubscriptionId(): string {
    return `${TEST_SUBSCRIPTION_PREFIX}${randomBytes(12).toString('hex')}`;
  }
}

function idOf(v: string | { id: string } | null | undefined): string | null {
  if (!v) return null;
  return typeof v === 'string' ? v : v.id;
}

/** The period end of a Stripe subscription: on its items in current API versions, on itself in older ones. */
export function stripePeriodEnd(sub: Stripe.Subscription): Date | null {
  return fromUnix(unixAt(sub.items?.data?.[0], 'current_period_end') ?? unixAt(sub, 'current_period_end'));
}

/**
 * A completed checkout whose payment is not confirmed yet: a delayed method (Bacs Direct Debit) leaves
 * payment_status 'unpaid' on checkout.session.completed; async_payment_succeeded or _failed follows.
 */
export function isProcessing(session: Stripe.Checkout.Session): boolean {
  return session.status === 'complete' && session.payment_status === 'unpaid';
}

export class StripeProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  readonly stripe: Stripe;
  constructor(readonly options: StripeOptions) {
    const config: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: 1, timeout: 15_000 };
    if (options.apiBase) {
      const u = new URL(options.apiBase);
      config.host = u.hostname;
      config.port = Number(u.port || (u.protocol === 'http:' ? 80 : 443));
      config.protocol = u.protocol === 'http:' ? 'http' : 'https';
    }
    this.stripe = new Stripe(options.secretKey, config);
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.providerUnavailable, [
        { path: 'stripe', message: errorMessage(err).slice(0, 200) },
      ]);
    }
  }

  private priceData(pkg: PackageInfo) {
    return { currency: 'gbp', unit_amount: toPence(pkg.monthlyFee), recurring: { interval: 'month' as const } };
  }

  async createCheckout(r: CheckoutRequest): Promise<{ id: string; url: string }> {
    const metadata = { user_id: r.userId, package_name: r.pkg.name };
    const taxRate = r.vatRate ? await this.vatTaxRate(r.vatRate) : null;
    const session = await this.call(() =>
      this.stripe.checkout.sessions.create({
        mode: 'subscription',
        client_reference_id: r.userId,
        ...(r.email ? { customer_email: r.email } : {}),
        line_items: [
          {
            quantity: 1,
            price_data: { ...this.priceData(r.pkg), product_data: { name: r.pkg.name, description: r.pkg.summary } },
            ...(taxRate ? { tax_rates: [taxRate] } : {}),
          },
        ],
        success_url: r.successUrl,
        cancel_url: r.cancelUrl,
        metadata,
        subscription_data: { metadata },
      }),
    );
    if (!session.url) throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.providerUnavailable);
    return { id: session.id, url: session.url };
  }

  private readonly taxRates = new Map<number, Promise<string>>();
  /** A Stripe tax rate for UK VAT at this percentage (exclusive: added to the price), made once per process. */
  private vatTaxRate(percentage: number): Promise<string> {
    let id = this.taxRates.get(percentage);
    if (!id) {
      id = this.call(() =>
        this.stripe.taxRates.create({ display_name: 'VAT', percentage, inclusive: false, country: 'GB', jurisdiction: 'GB' }),
      ).then((t) => t.id);
      id.catch(() => this.taxRates.delete(percentage));
      this.taxRates.set(percentage, id);
    }
    return id;
  }

  async checkPaid(s: SessionState): Promise<PaidCheckout | 'processing' | null> {
    const session = await this.call(() => this.stripe.checkout.sessions.retrieve(s.id, { expand: ['subscription'] }));
    if (isProcessing(session)) return 'processing';
    return this.paidFromSession(session);
  }

  /** A completed, paid session (from retrieve or from a checkout.session.completed event), or null. */
  async paidFromSession(session: Stripe.Checkout.Session): Promise<PaidCheckout | null> {
    const paid = session.status === 'complete' && (session.payment_status === 'paid' || session.payment_status === 'no_payment_required');
    if (!paid) return null;
    const subscriptionId = idOf(session.subscription);
    let currentPeriodEnd: Date | null = null;
    if (session.subscription && typeof session.subscription === 'object') currentPeriodEnd = stripePeriodEnd(session.subscription);
    else if (subscriptionId) currentPeriodEnd = await this.periodEnd(subscriptionId);
    return {
      providerCustomerId: idOf(session.customer),
      providerSubscriptionId: subscriptionId,
      email: session.customer_details?.email ?? session.customer_email ?? null,
      currentPeriodEnd,
    };
  }

  async periodEnd(providerSubscriptionId: string): Promise<Date | null> {
    const sub = await this.call(() => this.stripe.subscriptions.retrieve(providerSubscriptionId));
    return stripePeriodEnd(sub);
  }

  async changePackage(providerSubscriptionId: string | null, pkg: PackageInfo): Promise<Date | null> {
    if (!providerSubscriptionId) throw new AppError('CONFLICT', BILLING_MESSAGES.noSubscription);
    const sub = await this.call(() => this.stripe.subscriptions.retrieve(providerSubscriptionId));
    const item = sub.items.data[0];
    if (!item) throw new AppError('UPSTREAM_UNAVAILABLE', BILLING_MESSAGES.providerUnavailable);
    const price = await this.call(() => this.stripe.prices.create({ ...this.priceData(pkg), product_data: { name: pkg.name } }));
    const updated = await this.call(() =>
      this.stripe.subscriptions.update(providerSubscriptionId, {
        items: [{ id: item.id, price: price.id }],
        proration_behavior: 'create_prorations',
        metadata: { package_name: pkg.name },
      }),
    );
    return stripePeriodEnd(updated);
  }

  /** Verify a webhook's signature and parse it; throws on a bad signature. */
  constructEvent(rawBody: Buffer, signature: string): Stripe.Event {
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.options.webhookSecret);
  }
}
