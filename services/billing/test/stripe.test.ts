import { BILLING_MESSAGES } from '@countinghouse/proto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePerson, startTestGateway, type Person, type TestGateway } from '../../../gateway/test/helpers.js';
import {
  adminToken,
  bearer,
  changePackage,
  checkout,
  clientUpgrades,
  count,
  subscription,
  verify,
  waitForClient,
  waitForCustomer,
} from './helpers.js';
import { startStripeMock, type StripeMock } from './stripe-mock.js';

const WEBHOOK_SECRET = 'whsec_countinghouse_test_secret';
const signer = new Stripe('sk_test_signer');

/** A Stripe event as Stripe would post it, signed (or signed with the wrong secret). */
function stripeEvent(id: string, type: string, object: Record<string, unknown>, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify({ id, object: 'event', type, api_version: Stripe.API_VERSION, created: 1_767_225_600, data: { object } });
  return { payload, signature: signer.webhooks.generateTestHeaderString({ payload, secret }) };
}

// The Stripe path against Stripe's official stripe-mock: checkout session creation, webhooks (signed,
// wrongly signed, replayed), the client's status following invoices and subscription changes, proration.
describe('billing: Stripe (stripe-mock)', () => {
  let mock: StripeMock;
  let gw: TestGateway;
  let alice: Person;
  let bob: Person;
  let sessionId: string;
  const subId = 'sub_alice_growth_1';

  async function post(payload: string, signature: string | null) {
    return gw.app.inject({
      method: 'POST',
      url: '/api/billing/webhooks/stripe',
      headers: { 'content-type': 'application/json; charset=utf-8', ...(signature ? { 'stripe-signature': signature } : {}) },
      payload,
    });
  }

  beforeAll(async () => {
    mock = await startStripeMock();
    gw = await startTestGateway({ stripe: { secretKey: 'sk_test_countinghouse', webhookSecret: WEBHOOK_SECRET, apiBase: mock.url } });
    alice = await makePerson(gw, 'alice.stripe@example.co.uk');
    bob = await makePerson(gw, 'bob.stripe@example.co.uk');
    await waitForCustomer(gw, alice.id);
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    await mock?.stop();
  });

  it('says the provider is Stripe', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/api/billing/packages' });
    expect(res.json().provider).toBe('stripe');
  });

  it('creates a Stripe Checkout session and sends the browser to Stripe', async () => {
    const res = await checkout(gw, alice.token, 'Growth');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.provider).toBe('stripe');
    expect(body.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    expect(body.session_id).toMatch(/^cs_/);
    sessionId = body.session_id;
    // The built-in test checkout is off when Stripe is configured.
    const test = await gw.app.inject({ method: 'POST', url: `/api/billing/test-checkout/${sessionId}/pay`, headers: bearer(alice.token) });
    expect(test.statusCode).toBe(404);
  });

  it('verification asks Stripe, and an unpaid session is not verified', async () => {
    const res = await verify(gw, alice.token, sessionId);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(BILLING_MESSAGES.paymentNotCompleted);
  });

  it('refuses webhooks without a signature, with a wrong secret, or with a changed body; records nothing', async () => {
    const good = stripeEvent('evt_forged_1', 'customer.subscription.deleted', { id: subId, object: 'subscription', status: 'canceled' });
    expect((await post(good.payload, null)).statusCode).toBe(400);
    const wrong = stripeEvent('evt_forged_1', 'customer.subscription.deleted', { id: subId, object: 'subscription' }, 'whsec_wrong');
    const r1 = await post(wrong.payload, wrong.signature);
    expect(r1.statusCode).toBe(400);
    expect(r1.json().error.message).toBe(BILLING_MESSAGES.badSignature);
    const r2 = await post(good.payload.replace('canceled', 'active'), good.signature);
    expect(r2.statusCode).toBe(400);
    expect(await count(gw, 'select 1 from billing.webhook_events')).toBe(0);
  });

  it('checkout.session.completed creates the subscription and the client; verification then succeeds, once', async () => {
    const ev = stripeEvent('evt_checkout_1', 'checkout.session.completed', {
      id: sessionId,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      payment_status: 'paid',
      client_reference_id: alice.id,
      customer: 'cus_alice',
      subscription: subId,
      customer_details: { email: 'alice.stripe@example.co.uk' },
      metadata: { user_id: alice.id, package_name: 'Growth' },
    });
    const res = await post(ev.payload, ev.signature);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    const client = await waitForClient(gw, alice.id, (c) => c.subscription_status === 'active', 'the client after checkout');
    expect(client).toMatchObject({ package_name: 'Growth', monthly_fee: '100.00', business_type: 'limited', onboarding_completed: false });

    const verified = await verify(gw, alice.token, sessionId);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ success: true, package_name: 'Growth', monthly_fee: 100, provider: 'stripe' });
    const again = await verify(gw, alice.token, sessionId);
    expect(again.statusCode).toBe(200);
    const other = await verify(gw, bob.token, sessionId);
    expect(other.statusCode).toBe(404);

    // Replaying the same event changes nothing.
    const replay = await post(ev.payload, ev.signature);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect(await count(gw, 'select 1 from billing.subscriptions')).toBe(1);
    expect(await count(gw, `select 1 from billing.outbox where type = 'billing.subscription_activated'`)).toBe(1);
    const { rows } = await gw.kit.runtime.pool.query(
      'select provider_subscription_id, provider_customer_id, status from billing.subscriptions',
    );
    expect(rows[0]).toEqual({ provider_subscription_id: subId, provider_customer_id: 'cus_alice', status: 'active' });
  });

  it('invoice.payment_failed makes the subscription and the client overdue, and shows as a failed payment', async () => {
    const ev = stripeEvent('evt_failed_1', 'invoice.payment_failed', {
      id: 'in_failed_1',
      object: 'invoice',
      amount_due: 10000,
      amount_paid: 0,
      parent: { type: 'subscription_details', subscription_details: { subscription: subId } },
      lines: { object: 'list', data: [] },
    });
    expect((await post(ev.payload, ev.signature)).statusCode).toBe(200);
    await waitForClient(gw, alice.id, (c) => c.subscription_status === 'overdue', 'the client overdue');
    const check = await subscription(gw, alice.token);
    expect(check.json()).toMatchObject({ status: 'overdue', package_name: 'Growth' });
    const summary = await gw.app.inject({ method: 'GET', url: '/api/billing/admin/summary', headers: bearer(await adminToken(gw.app)) });
    expect(summary.json()).toMatchObject({ overdue: 1, active: 0, mrr: 0, provider: 'stripe' });
    expect(summary.json().failed_payments).toMatchObject([
      { email: 'alice.stripe@example.co.uk', amount: 100, provider_invoice_id: 'in_failed_1' },
    ]);
  });

  it('invoice.paid makes it active again with the new period end; a replay changes nothing', async () => {
    const periodEnd = Math.floor(Date.UTC(2031, 5, 15, 12) / 1000);
    const ev = stripeEvent('evt_paid_1', 'invoice.paid', {
      id: 'in_paid_1',
      object: 'invoice',
      amount_due: 10000,
      amount_paid: 10000,
      parent: { type: 'subscription_details', subscription_details: { subscription: subId } },
      lines: { object: 'list', data: [{ period: { start: periodEnd - 30 * 86400, end: periodEnd } }] },
    });
    expect((await post(ev.payload, ev.signature)).json()).toEqual({ received: true, duplicate: false });
    const client = await waitForClient(gw, alice.id, (c) => c.subscription_status === 'active', 'the client active again');
    expect(client.next_billing_date).toBe('2031-06-15');
    const before = {
      payments: await count(gw, 'select 1 from billing.payments'),
      outbox: await count(gw, 'select 1 from billing.outbox'),
      updated: (await gw.kit.runtime.pool.query('select updated_at from billing.subscriptions')).rows[0].updated_at.getTime(),
    };
    expect((await post(ev.payload, ev.signature)).json()).toEqual({ received: true, duplicate: true });
    expect(await count(gw, 'select 1 from billing.payments')).toBe(before.payments);
    expect(await count(gw, 'select 1 from billing.outbox')).toBe(before.outbox);
    expect((await gw.kit.runtime.pool.query('select updated_at from billing.subscriptions')).rows[0].updated_at.getTime()).toBe(
      before.updated,
    );
  });

  it("a renewal Stripe charged gets its own VAT invoice, once, from Stripe's amounts; the first invoice of a subscription does not", async () => {
    // The practice became VAT-registered at 20 %: the checkout's rate goes on the subscription's renewals.
    await gw.kit.runtime.pool.query(`update billing.checkout_sessions set vat_rate = 20 where id = $1`, [sessionId]);
    const invoicesOf = async () =>
      (
        await gw.kit.runtime.pool.query(
          `select number, provider_invoice_id, net, vat_rate, vat, gross, description, email, to_char(issued_at at time zone 'UTC', 'YYYY-MM-DD') as issued
           from billing.invoices where user_id = $1 order by seq`,
          [alice.id],
        )
      ).rows;
    const before = await invoicesOf();
    const periodEnd = Math.floor(Date.UTC(2031, 6, 15, 12) / 1000);
    const renewal = (id: string, reason: string, invoiceId: string) =>
      stripeEvent(id, 'invoice.paid', {
        id: invoiceId,
        object: 'invoice',
        billing_reason: reason,
        amount_due: 12000,
        amount_paid: 12000,
        subtotal: 10000,
        total_excluding_tax: 10000,
        status_transitions: { paid_at: Math.floor(Date.UTC(2031, 5, 15, 12, 5) / 1000) },
        parent: { type: 'subscription_details', subscription_details: { subscription: subId } },
        lines: { object: 'list', data: [{ period: { start: periodEnd - 30 * 86400, end: periodEnd } }] },
      });
    const first = renewal('evt_first_1', 'subscription_create', 'in_first_1');
    expect((await post(first.payload, first.signature)).statusCode).toBe(200);
    expect(await invoicesOf()).toEqual(before);

    const cycle = renewal('evt_cycle_1', 'subscription_cycle', 'in_cycle_1');
    expect((await post(cycle.payload, cycle.signature)).json()).toEqual({ received: true, duplicate: false });
    const after = await invoicesOf();
    expect(after).toHaveLength(before.length + 1);
    const last = after[after.length - 1]!;
    expect(last).toMatchObject({
      provider_invoice_id: 'in_cycle_1',
      net: '100.00',
      vat_rate: '20.00',
      vat: '20.00',
      gross: '120.00',
      email: 'alice.stripe@example.co.uk',
      issued: '2031-06-15',
      description: 'Growth package: accountancy services, one month, to 15 July 2031',
    });
    // Numbered in the one sequence after the checkout's invoice.
    expect(Number(last.number.replace(/\D/g, ''))).toBeGreaterThan(Number((before.at(-1)?.number ?? '0').replace(/\D/g, '')));
    // The same Stripe invoice again, under another event id: still one VAT invoice.
    const again = renewal('evt_cycle_1b', 'subscription_cycle', 'in_cycle_1');
    expect((await post(again.payload, again.signature)).json()).toEqual({ received: true, duplicate: false });
    expect(await invoicesOf()).toHaveLength(before.length + 1);
    // The client finds it under Billing.
    const mine = await gw.app.inject({ method: 'GET', url: '/api/billing/invoices', headers: bearer(alice.token) });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(JSON.stringify(mine.json())).toContain(last.number);
  });

  it("a Stripe credit note gets our credit note against the invoice it credits, once; the checkout's invoice too", async () => {
    const docs = async (kind: string) =>
      (
        await gw.kit.runtime.pool.query(
          `select number, provider_invoice_id, checkout_session_id, net, vat_rate, vat, gross, description, to_char(issued_at at time zone 'UTC', 'YYYY-MM-DD') as issued
           from billing.invoices where user_id = $1 and kind = $2 order by seq`,
          [alice.id, kind],
        )
      ).rows;
    const invoices = await docs('invoice');
    const renewal = invoices.find((i) => i.provider_invoice_id === 'in_cycle_1')!;
    const checkoutInvoice = invoices.find((i) => i.checkout_session_id === sessionId)!;
    expect(renewal && checkoutInvoice).toBeTruthy();
    const credit = (id: string, cnId: string, invoice: string, total: number, net: number, reason: string | null) =>
      stripeEvent(id, 'credit_note.created', {
        id: cnId,
        object: 'credit_note',
        invoice,
        total,
        subtotal: net,
        total_excluding_tax: net,
        reason,
        created: Math.floor(Date.UTC(2031, 5, 20, 10) / 1000),
      });
    const refund = credit('evt_cn_1', 'cn_1', 'in_cycle_1', 6000, 5000, 'product_unsatisfactory');
    expect((await post(refund.payload, refund.signature)).json()).toEqual({ received: true, duplicate: false });
    expect(await docs('credit_note')).toEqual([
      expect.objectContaining({
        provider_invoice_id: 'cn_1',
        net: '50.00',
        vat_rate: '20.00',
        vat: '10.00',
        gross: '60.00',
        issued: '2031-06-20',
        description: `Credit against invoice ${renewal.number} of 15 June 2031: a refund`,
      }),
    ]);
    expect((await docs('credit_note'))[0].number).toMatch(/^CN-/);
    // The same Stripe credit note under another event id: still one.
    const again = credit('evt_cn_1b', 'cn_1', 'in_cycle_1', 6000, 5000, 'product_unsatisfactory');
    expect((await post(again.payload, again.signature)).json()).toEqual({ received: true, duplicate: false });
    expect(await docs('credit_note')).toHaveLength(1);
    // Stripe's first invoice of the subscription is the checkout's: the credit names the checkout's VAT invoice.
    const first = credit('evt_cn_2', 'cn_2', 'in_first_1', 1200, 1000, 'order_change');
    expect((await post(first.payload, first.signature)).statusCode).toBe(200);
    expect((await docs('credit_note'))[1]).toMatchObject({
      provider_invoice_id: 'cn_2',
      gross: '12.00',
      description: expect.stringMatching(new RegExp(`^Credit against invoice ${checkoutInvoice.number} of .+: a change of package$`)),
    });
    // A credit note for an invoice we never issued adds nothing.
    const unknown = credit('evt_cn_3', 'cn_3', 'in_nobody', 1000, 1000, null);
    expect((await post(unknown.payload, unknown.signature)).statusCode).toBe(200);
    expect(await docs('credit_note')).toHaveLength(2);
  });

  it('changing package updates the Stripe subscription with proration, then ours and the client', async () => {
    const res = await changePackage(gw, alice.token, 'Professional');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ package_name: 'Professional', monthly_fee: 200 });
    const client = await waitForClient(gw, alice.id, (c) => c.package_name === 'Professional', 'the client on Professional');
    expect(client.monthly_fee).toBe('200.00');
    expect(await clientUpgrades(gw, client.id)).toEqual([{ from_package: 'Growth', to_package: 'Professional', status: 'completed' }]);
  });

  it('customer.subscription.updated maps Stripe statuses; .deleted cancels', async () => {
    const subscriptionEvent = (id: string, type: string, status: string) =>
      stripeEvent(id, type, {
        id: subId,
        object: 'subscription',
        status,
        metadata: { package_name: 'Professional' },
        items: { object: 'list', data: [] },
      });
    const upd = subscriptionEvent('evt_sub_upd_1', 'customer.subscription.updated', 'past_due');
    expect((await post(upd.payload, upd.signature)).statusCode).toBe(200);
    await waitForClient(gw, alice.id, (c) => c.subscription_status === 'overdue', 'overdue after past_due');

    const del = subscriptionEvent('evt_sub_del_1', 'customer.subscription.deleted', 'canceled');
    expect((await post(del.payload, del.signature)).statusCode).toBe(200);
    await waitForClient(gw, alice.id, (c) => c.subscription_status === 'cancelled', 'cancelled');
    const check = await subscription(gw, alice.token);
    expect(check.json()).toMatchObject({ subscribed: false, status: 'cancelled', package_name: 'Professional' });
  });

  it('an event for a subscription we do not know is accepted and ignored', async () => {
    const ev = stripeEvent('evt_unknown_1', 'invoice.paid', {
      id: 'in_x',
      object: 'invoice',
      amount_paid: 5000,
      parent: { subscription_details: { subscription: 'sub_someone_else' } },
      lines: { data: [] },
    });
    expect((await post(ev.payload, ev.signature)).json()).toEqual({ received: true, duplicate: false });
    expect(await count(gw, `select 1 from billing.payments where provider_invoice_id = 'in_x'`)).toBe(0);
  });

  /** The practice's VAT registration, as an administrator records it in settings. */
  async function putVat(payload: { vat_number: string; rate: number; address: string }) {
    const put = await gw.app.inject({ method: 'PUT', url: '/api/billing/vat', headers: bearer(await adminToken(gw.app)), payload });
    expect(put.statusCode, put.body).toBe(200);
  }

  it('a VAT-registered practice: the Stripe checkout carries a GB VAT tax rate, and the session keeps the rate shown', async () => {
    await putVat({ vat_number: 'GB123456789', rate: 20, address: '1 Counting Lane, London' });
    const carol = await makePerson(gw, 'carol.stripe@example.co.uk');
    const sent = mock.requests.length;
    const res = await checkout(gw, carol.token, 'Growth');
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = await gw.kit.runtime.pool.query('select vat_rate::float as r from billing.checkout_sessions where id = $1', [
      res.json().session_id,
    ]);
    expect(rows[0].r).toBe(20);

    // What Stripe was asked (stripe-mock checked each request against Stripe's API description): a GB VAT
    // rate of 20 %, exclusive (added to the £100.00 price, so the client pays £120.00), then the session
    // with that rate on its one line.
    const asked = mock.requests.slice(sent);
    const rates = asked.filter((r) => r.method === 'POST' && r.path === '/v1/tax_rates');
    expect(rates).toHaveLength(1);
    expect(rates[0]!.form).toMatchObject({ display_name: 'VAT', percentage: '20', inclusive: 'false', country: 'GB', jurisdiction: 'GB' });
    const sessions = asked.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(sessions).toHaveLength(1);
    const line = sessions[0]!.form;
    expect(line['line_items[0][price_data][unit_amount]']).toBe('10000');
    expect(line['line_items[0][price_data][currency]']).toBe('gbp');
    expect(line['line_items[0][tax_rates][0]']).toMatch(/^txr_/);
    expect(line['line_items[0][tax_rates][1]']).toBeUndefined();

    // The rate is made once per process: a second checkout reuses it.
    const dave = await makePerson(gw, 'dave.stripe@example.co.uk');
    const before = mock.requests.length;
    expect((await checkout(gw, dave.token, 'Scale')).statusCode).toBe(200);
    const again = mock.requests.slice(before);
    expect(again.filter((r) => r.path === '/v1/tax_rates')).toHaveLength(0);
    expect(again.find((r) => r.path === '/v1/checkout/sessions')?.form['line_items[0][tax_rates][0]']).toBe(
      line['line_items[0][tax_rates][0]'],
    );
  });

  it('a practice not registered for VAT: no tax rate on the Stripe line', async () => {
    await putVat({ vat_number: '', rate: 20, address: '' });
    const erin = await makePerson(gw, 'erin.stripe@example.co.uk');
    const before = mock.requests.length;
    expect((await checkout(gw, erin.token, 'Growth')).statusCode).toBe(200);
    const session = mock.requests.slice(before).find((r) => r.path === '/v1/checkout/sessions');
    expect(session?.form['line_items[0][price_data][unit_amount]']).toBe('10000');
    expect(Object.keys(session?.form ?? {}).filter((k) => k.includes('tax_rates'))).toEqual([]);
  });
});
