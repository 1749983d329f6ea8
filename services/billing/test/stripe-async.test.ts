import { BILLING_MESSAGES } from '@countinghouse/proto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePerson, startTestGateway, type Person, type TestGateway } from '../../../gateway/test/helpers.js';
import { checkout, count, verify, waitForClient, waitForCustomer } from './helpers.js';
import { startStripeMock, type StripeMock } from './stripe-mock.js';

const WEBHOOK_SECRET = 'whsec_countinghouse_async_secret';
const signer = new Stripe('sk_test_signer');

/** A Stripe event as Stripe would post it, signed with the endpoint's secret. */
function stripeEvent(id: string, type: string, object: Record<string, unknown>) {
  const payload = JSON.stringify({ id, object: 'event', type, api_version: Stripe.API_VERSION, created: 1_767_225_600, data: { object } });
  return { payload, signature: signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) };
}

/** A Checkout Session paid by a delayed method (Bacs Direct Debit), as the three events carry it. */
function bacsSession(id: string, person: Person, subscription: string, paymentStatus: 'unpaid' | 'paid') {
  return {
    id,
    object: 'checkout.session',
    mode: 'subscription',
    status: 'complete',
    payment_status: paymentStatus,
    payment_method_types: ['bacs_debit'],
    client_reference_id: person.id,
    customer: `cus_${person.id.slice(0, 8)}`,
    subscription,
    customer_details: { email: person.email },
    metadata: { user_id: person.id, package_name: 'Growth' },
  };
}

// Delayed payment methods against Stripe's official stripe-mock, with signed webhook payloads.
describe('billing: Stripe delayed payments (Bacs Direct Debit)', () => {
  let mock: StripeMock;
  let gw: TestGateway;

  async function post(ev: { payload: string; signature: string }) {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/api/billing/webhooks/stripe',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': ev.signature },
      payload: ev.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { received: boolean; duplicate: boolean };
  }

  const activations = (sessionId: string) =>
    count(
      gw,
      `select 1 from billing.outbox where type = 'billing.subscription_activated' and envelope->'data'->>'checkoutSessionId' = $1`,
      [sessionId],
    );

  beforeAll(async () => {
    mock = await startStripeMock();
    gw = await startTestGateway({ stripe: { secretKey: 'sk_test_countinghouse', webhookSecret: WEBHOOK_SECRET, apiBase: mock.url } });
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    await mock?.stop();
  });

  it('completed but unpaid: "payment processing" (not a failure); async_payment_succeeded activates the client exactly once', async () => {
    const carol = await makePerson(gw, 'carol.bacs@example.co.uk');
    await waitForCustomer(gw, carol.id);
    const sessionId = (await checkout(gw, carol.token, 'Growth')).json().session_id as string;
    const subId = 'sub_carol_bacs_1';

    expect(
      await post(stripeEvent('evt_bacs_completed', 'checkout.session.completed', bacsSession(sessionId, carol, subId, 'unpaid'))),
    ).toEqual({ received: true, duplicate: false });
    expect(await count(gw, 'select 1 from billing.subscriptions where user_id = $1', [carol.id])).toBe(0);
    const processing = await verify(gw, carol.token, sessionId);
    expect(processing.statusCode, processing.body).toBe(200);
    expect(processing.json()).toMatchObject({
      success: false,
      payment_processing: true,
      package_name: 'Growth',
      monthly_fee: 100,
      subscription_status: 'pending',
      provider: 'stripe',
    });

    const succeeded = stripeEvent(
      'evt_bacs_succeeded',
      'checkout.session.async_payment_succeeded',
      bacsSession(sessionId, carol, subId, 'paid'),
    );
    expect(await post(succeeded)).toEqual({ received: true, duplicate: false });
    const client = await waitForClient(
      gw,
      carol.id,
      (c) => c.subscription_status === 'active',
      'the client after the Direct Debit cleared',
    );
    expect(client.package_name).toBe('Growth');
    const verified = await verify(gw, carol.token, sessionId);
    expect(verified.json()).toMatchObject({ success: true, subscription_status: 'active', package_name: 'Growth' });
    expect(verified.json().payment_processing).toBeUndefined();

    // Stripe retries the event; and the completed event arrives again late: still one activation.
    expect(await post(succeeded)).toEqual({ received: true, duplicate: true });
    const late = stripeEvent('evt_bacs_completed_late', 'checkout.session.completed', bacsSession(sessionId, carol, subId, 'unpaid'));
    expect(await post(late)).toEqual({ received: true, duplicate: false });
    expect(await activations(sessionId)).toBe(1);
    expect(await count(gw, 'select 1 from billing.subscriptions where user_id = $1', [carol.id])).toBe(1);
    const { rows } = await gw.kit.runtime.pool.query('select status from billing.checkout_sessions where id = $1', [sessionId]);
    expect(rows[0].status).toBe('completed');
  });

  it('async_payment_failed: the page says the payment failed, nothing is activated', async () => {
    const dan = await makePerson(gw, 'dan.bacs@example.co.uk');
    await waitForCustomer(gw, dan.id);
    const sessionId = (await checkout(gw, dan.token, 'Growth')).json().session_id as string;
    await post(stripeEvent('evt_dan_completed', 'checkout.session.completed', bacsSession(sessionId, dan, 'sub_dan_1', 'unpaid')));
    expect((await verify(gw, dan.token, sessionId)).json().payment_processing).toBe(true);
    await post(stripeEvent('evt_dan_failed', 'checkout.session.async_payment_failed', bacsSession(sessionId, dan, 'sub_dan_1', 'unpaid')));
    const failed = await verify(gw, dan.token, sessionId);
    expect(failed.statusCode).toBe(409);
    expect(failed.json().error.message).toBe(BILLING_MESSAGES.paymentFailed);
    expect(await activations(sessionId)).toBe(0);
    expect(await count(gw, 'select 1 from billing.subscriptions where user_id = $1', [dan.id])).toBe(0);
  });

  it('invoice.payment_failed moves the client to overdue once; a second failure records the payment without rewriting it', async () => {
    const erin = await makePerson(gw, 'erin.card@example.co.uk');
    await waitForCustomer(gw, erin.id);
    const sessionId = (await checkout(gw, erin.token, 'Growth')).json().session_id as string;
    const subId = 'sub_erin_1';
    await post(
      stripeEvent('evt_erin_paid', 'checkout.session.completed', {
        ...bacsSession(sessionId, erin, subId, 'paid'),
        payment_method_types: ['card'],
      }),
    );
    await waitForClient(gw, erin.id, (c) => c.subscription_status === 'active', 'active');
    const invoice = (id: string) => ({
      id,
      object: 'invoice',
      amount_due: 10000,
      amount_paid: 0,
      parent: { type: 'subscription_details', subscription_details: { subscription: subId } },
      lines: { object: 'list', data: [] },
    });
    await post(stripeEvent('evt_erin_fail_1', 'invoice.payment_failed', invoice('in_erin_1')));
    await waitForClient(gw, erin.id, (c) => c.subscription_status === 'overdue', 'overdue');
    const updatedAt = async () =>
      (
        await gw.kit.runtime.pool.query('select updated_at from billing.subscriptions where user_id = $1', [erin.id])
      ).rows[0].updated_at.getTime();
    const before = await updatedAt();
    await post(stripeEvent('evt_erin_fail_2', 'invoice.payment_failed', invoice('in_erin_2')));
    expect(await updatedAt()).toBe(before);
    expect(
      await count(gw, `select 1 from billing.payments where provider_invoice_id in ('in_erin_1', 'in_erin_2') and status = 'failed'`),
    ).toBe(2);
    expect(
      await count(gw, `select 1 from billing.outbox where type = 'billing.payment_failed' and envelope->'data'->>'email' = $1`, [
        erin.email,
      ]),
    ).toBe(2);
  });
});
