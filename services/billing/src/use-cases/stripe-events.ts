import { findPackage, type Actor } from '@countinghouse/proto';
import type Stripe from 'stripe';
import {
  eventState,
  findByProviderSubscription,
  findCheckoutSession,
  insertPayment,
  markCheckoutSession,
  publish,
  recordWebhookEvent,
  updateSubscription,
  type DbOrTx,
  type SubscriptionRow,
} from '../db/queries.js';
import type { subscriptions } from '../db/schema.js';
import { fromPence, fromUnix, pathOf, statusFromStripe, unixAt } from '../domain/subscriptions.js';
import { isProcessing, stripePeriodEnd, type PaidCheckout, type StripeProvider } from '../adapters/payment-providers.js';
import { completeCheckout, DEFAULT_PRACTICE_NAME } from './checkout.js';
import type { BillingDeps } from './deps.js';
import { customerLabel, issueCreditNote, issueInvoiceForRenewal } from './vat.js';

const SYSTEM: Actor = { kind: 'system', id: 'stripe' };

export const HANDLED_STRIPE_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'credit_note.created',
] as const;

function idOf(v: unknown): string | null {
  if (!v) return null;
  if (typeof v === 'string') return v;
  const id = pathOf(v, 'id');
  return typeof id === 'string' ? id : null;
}

/** The subscription an invoice bills: `parent.subscription_details` in current API versions, `subscription` in older ones. */
function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  return idOf(pathOf(invoice, 'parent', 'subscription_details', 'subscription')) ?? idOf(pathOf(invoice, 'subscription'));
}

function invoicePeriodEnd(invoice: Stripe.Invoice): Date | null {
  return fromUnix(unixAt(invoice.lines?.data?.[0], 'period', 'end'));
}

/**
 * Apply one verified Stripe event, once: the event id is recorded in the same transaction as its
 * effects, so a replay (Stripe retries, or an attacker resending a captured payload) changes nothing.
 * Returns false for a duplicate.
 */
export async function handleStripeEvent(d: BillingDeps & { provider: StripeProvider }, event: Stripe.Event): Promise<boolean> {
  // Network calls to Stripe happen before the transaction, never while rows are locked.
  let paid: PaidCheckout | null = null;
  if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
    paid = await d.provider.paidFromSession(event.data.object);
  }

  const fresh = await d.db.transaction(async (tx) => {
    if (!(await recordWebhookEvent(tx, event.id, event.type))) return false;
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const s = event.data.object;
        if (!(await findCheckoutSession(tx, s.id))) break;
        if (paid)
          await completeCheckout(tx, s.id, paid, {
            actor: SYSTEM,
            verified: false,
            recordPayment: false,
            practiceName: d.practice?.().name,
          });
        else if (isProcessing(s)) await markSession(tx, s.id, 'processing');
        break;
      }
      case 'checkout.session.async_payment_failed':
        await markSession(tx, event.data.object.id, 'failed');
        break;
      case 'invoice.paid':
        await onInvoice(tx, event.data.object, 'paid', d.practice?.().name ?? DEFAULT_PRACTICE_NAME);
        break;
      case 'invoice.payment_failed':
        await onInvoice(tx, event.data.object, 'failed', d.practice?.().name ?? DEFAULT_PRACTICE_NAME);
        break;
      case 'customer.subscription.updated':
        await onSubscriptionUpdated(tx, event.data.object);
        break;
      case 'customer.subscription.deleted':
        await onSubscriptionDeleted(tx, event.data.object);
        break;
      case 'credit_note.created': {
        // A refund or a credit against an invoice (issue 33): our credit note against our VAT invoice.
        const cn = event.data.object;
        const stripeInvoiceId = idOf(cn.invoice);
        if (!stripeInvoiceId) break;
        await issueCreditNote(tx, {
          practiceName: d.practice?.().name ?? DEFAULT_PRACTICE_NAME,
          providerCreditNoteId: cn.id,
          stripeInvoiceId,
          net: fromPence(cn.total_excluding_tax ?? cn.subtotal),
          gross: fromPence(cn.total),
          reason: cn.reason ?? null,
          at: fromUnix(cn.created) ?? new Date(),
        });
        break;
      }
      default:
        // Recorded as seen; nothing else to do.
        break;
    }
    return true;
  });
  return fresh;
}

async function onInvoice(tx: DbOrTx, invoice: Stripe.Invoice, outcome: 'paid' | 'failed', practiceName: string) {
  const providerSubscriptionId = invoiceSubscriptionId(invoice);
  if (!providerSubscriptionId) return;
  const sub = await findByProviderSubscription(tx, 'stripe', providerSubscriptionId);
  // An invoice for a subscription whose checkout we have not completed yet: the completion reads the
  // subscription's state from Stripe itself.
  if (!sub) return;
  const amount = fromPence(outcome === 'paid' ? invoice.amount_paid : invoice.amount_due);
  await insertPayment(tx, { subscriptionId: sub.id, providerInvoiceId: invoice.id ?? null, amount, status: outcome });
  if (outcome === 'paid') {
    const periodEnd = invoicePeriodEnd(invoice) ?? sub.currentPeriodEnd;
    // A renewal's VAT invoice (issue 33): Stripe's first invoice is the checkout's, which has its own.
    if (invoice.billing_reason === 'subscription_cycle' && invoice.id) {
      const session = await findCheckoutSession(tx, sub.checkoutSessionId);
      const email = sub.email;
      await issueInvoiceForRenewal(tx, {
        practiceName,
        userId: sub.userId,
        subscriptionId: sub.id,
        providerInvoiceId: invoice.id,
        packageName: sub.packageName,
        net: fromPence(invoice.total_excluding_tax ?? invoice.subtotal ?? invoice.amount_paid),
        gross: fromPence(invoice.amount_paid),
        vatRate: Number(session?.vatRate ?? 0),
        email,
        clientName: await customerLabel(tx, sub.userId, email),
        at: fromUnix(unixAt(invoice, 'status_transitions', 'paid_at')) ?? new Date(),
        periodEnd: invoicePeriodEnd(invoice),
      });
    }
    const row = await update(tx, sub, { status: sub.status === 'cancelled' ? 'cancelled' : 'active', currentPeriodEnd: periodEnd });
    await publish(
      tx,
      'billing.subscription_updated',
      { ...eventState(row), reason: 'renewed', previousPackageName: sub.packageName },
      SYSTEM,
    );
  } else {
    if (sub.status === 'cancelled') return;
    const row = sub.status === 'overdue' ? sub : await update(tx, sub, { status: 'overdue' });
    await publish(tx, 'billing.payment_failed', { ...eventState(row), invoiceId: invoice.id ?? null, amount }, SYSTEM);
  }
}

async function onSubscriptionUpdated(tx: DbOrTx, s: Stripe.Subscription) {
  const sub = await findByProviderSubscription(tx, 'stripe', s.id);
  if (!sub) return;
  const status = statusFromStripe(s.status);
  const pkg = findPackage(s.metadata?.package_name);
  const periodEnd = stripePeriodEnd(s) ?? sub.currentPeriodEnd;
  const next = {
    status,
    packageName: pkg?.name ?? sub.packageName,
    monthlyFee: pkg?.monthlyFee ?? sub.monthlyFee,
    currentPeriodEnd: periodEnd,
  };
  const changed =
    next.status !== sub.status ||
    next.packageName !== sub.packageName ||
    next.currentPeriodEnd?.getTime() !== sub.currentPeriodEnd?.getTime();
  if (!changed) return;
  const row = await update(tx, sub, { ...next, cancelledAt: status === 'cancelled' ? new Date() : null });
  if (status === 'cancelled') {
    await publish(tx, 'billing.subscription_cancelled', eventState(row), SYSTEM);
  } else {
    const packageChanged = next.packageName !== sub.packageName;
    await publish(
      tx,
      'billing.subscription_updated',
      { ...eventState(row), reason: packageChanged ? 'package_changed' : 'provider_update', previousPackageName: sub.packageName },
      SYSTEM,
    );
  }
}

async function onSubscriptionDeleted(tx: DbOrTx, s: Stripe.Subscription) {
  const sub = await findByProviderSubscription(tx, 'stripe', s.id);
  if (!sub || sub.status === 'cancelled') return;
  const row = await update(tx, sub, { status: 'cancelled', cancelledAt: new Date() });
  await publish(tx, 'billing.subscription_cancelled', eventState(row), SYSTEM);
}

/** An open (or processing) checkout's payment is being confirmed, or failed; a completed one stays completed. */
async function markSession(tx: DbOrTx, id: string, status: 'processing' | 'failed') {
  await markCheckoutSession(tx, id, status, ['open', 'processing']);
}

async function update(tx: DbOrTx, sub: SubscriptionRow, set: Partial<typeof subscriptions.$inferInsert>): Promise<SubscriptionRow> {
  return updateSubscription(tx, sub.id, { ...set, updatedAt: new Date() });
}
