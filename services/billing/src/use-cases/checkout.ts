import { AppError, pgErrorCode } from '@countinghouse/kit';
import { BILLING_MESSAGES, findPackage, MESSAGES, type Actor, type PackageInfo, type VerifyReply } from '@countinghouse/proto';
import {
  customerNames,
  emailOf,
  eventState,
  findCheckoutSession,
  findLiveSubscription,
  findSubscription,
  hasAcceptedTerms,
  insertCheckoutSession,
  insertPayment,
  insertSubscription,
  lockCheckoutSession,
  markCheckoutSession,
  publish,
  updateCheckoutSession,
  updateSubscription,
  type DbOrTx,
  type SessionRow,
  type SubscriptionRow,
} from '../db/queries.js';
import { TestProvider, type PaidCheckout } from '../adapters/payment-providers.js';
import type { BillingDeps } from './deps.js';
import { chargedRate, issueInvoiceForCheckout } from './vat.js';

/** The name on invoices when the practice's settings are not known to billing (tests, a bare service). */
export const DEFAULT_PRACTICE_NAME = 'Countinghouse Accountants';

export function packageOrFail(name: string): PackageInfo {
  const pkg = findPackage(name);
  if (!pkg) throw new AppError('VALIDATION_FAILED', MESSAGES.validationFailed, [{ path: 'package_name', message: 'is not a package' }]);
  return pkg;
}

/** Start a checkout for the signed-in person. A person with a live subscription changes package instead. */
export async function startCheckout(d: BillingDeps, o: { userId: string; emailHint: string | null; packageName: string }) {
  const pkg = packageOrFail(o.packageName);
  if (await findLiveSubscription(d.db, o.userId)) throw new AppError('CONFLICT', BILLING_MESSAGES.alreadySubscribed);
  // Terms before payment (issue 33): the engagement is agreed before the practice bills for it.
  if (!(await hasAcceptedTerms(d.db, o.userId, pkg.name)))
    throw new AppError('TERMS_NOT_ACCEPTED', BILLING_MESSAGES.termsNotAccepted(pkg.name));
  const email = (await emailOf(d.db, o.userId)) ?? o.emailHint;
  const base = d.publicUrl.replace(/\/+$/, '');
  const vatRate = await chargedRate(d.db);
  const created = await d.provider.createCheckout({
    userId: o.userId,
    email,
    pkg,
    vatRate,
    successUrl: `${base}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${base}/package-selection`,
  });
  await insertCheckoutSession(d.db, {
    id: created.id,
    userId: o.userId,
    packageName: pkg.name,
    monthlyFee: pkg.monthlyFee,
    vatRate,
    provider: d.provider.kind,
    url: created.url,
  });
  return { url: created.url, session_id: created.id, provider: d.provider.kind };
}

/**
 * The one path after the provider says a checkout is paid (verification, Stripe's webhook, the test
 * checkout): create the subscription once, mark the session completed, publish
 * billing.subscription_activated. Safe to call again and concurrently: the session row is locked and a
 * completed session returns its subscription.
 */
export async function completeCheckout(
  tx: DbOrTx,
  sessionId: string,
  paid: PaidCheckout,
  o: { actor: Actor; verified: boolean; recordPayment: boolean; practiceName?: string },
): Promise<SubscriptionRow> {
  const session = await lockCheckoutSession(tx, sessionId);
  if (!session) throw new AppError('NOT_FOUND', BILLING_MESSAGES.sessionNotFound);
  if (session.status === 'completed' && session.subscriptionId) {
    if (o.verified && !session.verifiedAt) await updateCheckoutSession(tx, session.id, { verifiedAt: new Date() });
    const existing = await findSubscription(tx, session.subscriptionId);
    if (!existing) throw new AppError('NOT_FOUND', BILLING_MESSAGES.sessionNotFound);
    return existing;
  }
  const email = paid.email ?? (await emailOf(tx, session.userId));
  if (!email) throw new AppError('CONFLICT', MESSAGES.failedToVerifyPayment);
  const values = {
    email,
    packageName: session.packageName,
    monthlyFee: session.monthlyFee,
    status: 'active' as const,
    provider: session.provider,
    providerCustomerId: paid.providerCustomerId,
    providerSubscriptionId: paid.providerSubscriptionId,
    checkoutSessionId: session.id,
    currentPeriodEnd: paid.currentPeriodEnd,
    updatedAt: new Date(),
    cancelledAt: null,
  };
  // Two checkouts paid by one person: the later payment's package wins, on the one live subscription.
  const live = await findLiveSubscription(tx, session.userId, { forUpdate: true });
  const row: SubscriptionRow = live
    ? await updateSubscription(tx, live.id, values)
    : await insertSubscription(tx, { userId: session.userId, ...values });
  const now = new Date();
  await updateCheckoutSession(tx, session.id, {
    status: 'completed',
    subscriptionId: row.id,
    providerCustomerId: paid.providerCustomerId,
    providerSubscriptionId: paid.providerSubscriptionId,
    paidAt: session.paidAt ?? now,
    ...(o.verified ? { verifiedAt: now } : {}),
  });
  if (o.recordPayment) await insertPayment(tx, { subscriptionId: row.id, amount: row.monthlyFee, status: 'paid' });
  const who = await customerNames(tx, row.userId);
  // The VAT invoice for this payment (issue 33), once, in the payment's transaction.
  await issueInvoiceForCheckout(tx, {
    practiceName: o.practiceName ?? DEFAULT_PRACTICE_NAME,
    userId: row.userId,
    subscriptionId: row.id,
    checkoutSessionId: session.id,
    packageName: session.packageName,
    net: Number(session.monthlyFee),
    vatRate: Number(session.vatRate),
    email,
    clientName: who.companyName || who.contactName || email,
    at: session.paidAt ?? now,
  });
  await publish(tx, 'billing.subscription_activated', { ...eventState(row), checkoutSessionId: session.id, ...who }, o.actor);
  return row;
}

function verifyReply(row: SubscriptionRow): VerifyReply {
  const pkg = findPackage(row.packageName);
  return {
    success: true,
    // A subscription's package may have left the catalogue (the demo seeds one that never was in it);
    // the reply names it all the same, as before the catalogue changed.
    package_name: (pkg?.name ?? row.packageName) as VerifyReply['package_name'],
    monthly_fee: row.monthlyFee,
    features: [...(pkg?.features ?? [])],
    subscription_status: row.status,
    subscription_end: row.currentPeriodEnd?.toISOString() ?? null,
    provider: row.provider,
  };
}

/**
 * The payment-success page's check, server-side. Idempotent: a completed session answers from the
 * database; an open one asks the provider and completes it once. Another person's session is not found.
 */
export async function verifyCheckout(d: BillingDeps, userId: string, sessionId: string): Promise<VerifyReply> {
  const session = await findCheckoutSession(d.db, sessionId);
  if (!session || session.userId !== userId) throw new AppError('NOT_FOUND', MESSAGES.failedToVerifyPayment);
  const actor: Actor = { kind: 'user', id: userId };
  if (session.status === 'completed') {
    const row = await d.db.transaction((tx) =>
      completeCheckout(tx, sessionId, emptyPaid, { actor, verified: true, recordPayment: false, practiceName: d.practice?.().name }),
    );
    return verifyReply(row);
  }
  if (session.status === 'failed') throw new AppError('CONFLICT', BILLING_MESSAGES.paymentFailed);
  if (session.provider !== d.provider.kind) throw new AppError('CONFLICT', MESSAGES.failedToVerifyPayment);
  const paid = await d.provider.checkPaid(session);
  if (paid === 'processing') {
    if (session.status === 'open') await markCheckoutSession(d.db, sessionId, 'processing', ['open']);
    return processingReply(session);
  }
  if (!paid) {
    // Stripe's webhook may have recorded a delayed payment before the page asked.
    if (session.status === 'processing') return processingReply(session);
    throw new AppError('CONFLICT', BILLING_MESSAGES.paymentNotCompleted);
  }
  const row = await runCompletion(d, () =>
    d.db.transaction((tx) =>
      completeCheckout(tx, sessionId, paid, {
        actor,
        verified: true,
        recordPayment: d.provider.kind === 'test',
        practiceName: d.practice?.().name,
      }),
    ),
  );
  return verifyReply(row);
}

/** The payment-success page's answer while a delayed payment method is being confirmed. */
function processingReply(session: SessionRow): VerifyReply {
  const pkg = findPackage(session.packageName);
  return {
    success: false,
    payment_processing: true,
    package_name: pkg?.name ?? session.packageName,
    monthly_fee: session.monthlyFee,
    features: [...(pkg?.features ?? [])],
    subscription_status: 'pending',
    subscription_end: null,
    provider: session.provider,
  };
}

const emptyPaid: PaidCheckout = { providerCustomerId: null, providerSubscriptionId: null, email: null, currentPeriodEnd: null };

/** Two completions racing on a person's live-subscription index: the loser retries and finds the winner's row. */
async function runCompletion<T>(_d: BillingDeps, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (pgErrorCode(err) === '23505') return fn();
    throw err;
  }
}

/** The test checkout's Pay button: the provider side of the test checkout. */
export async function payTestCheckout(d: BillingDeps, userId: string, sessionId: string): Promise<SessionRow> {
  if (d.provider.kind !== 'test') throw new AppError('NOT_FOUND', MESSAGES.notFound);
  return d.db.transaction(async (tx) => {
    const s = await lockCheckoutSession(tx, sessionId);
    if (!s || s.userId !== userId || s.provider !== 'test') throw new AppError('NOT_FOUND', BILLING_MESSAGES.sessionNotFound);
    if (s.status !== 'open') return s;
    const row = await updateCheckoutSession(tx, s.id, {
      status: 'paid',
      paidAt: new Date(),
      providerSubscriptionId: TestProvider.newSubscriptionId(),
    });
    return row!;
  });
}

export async function getTestCheckout(d: BillingDeps, userId: string, sessionId: string): Promise<SessionRow> {
  if (d.provider.kind !== 'test') throw new AppError('NOT_FOUND', MESSAGES.notFound);
  const s = await findCheckoutSession(d.db, sessionId);
  if (!s || s.userId !== userId || s.provider !== 'test') throw new AppError('NOT_FOUND', BILLING_MESSAGES.sessionNotFound);
  return s;
}
