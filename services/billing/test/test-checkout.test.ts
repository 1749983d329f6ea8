import { BILLING_MESSAGES, CLIENT_PLACEHOLDERS, findPackage, MESSAGES } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePerson, startTestGateway, type Person, type TestGateway } from '../../../gateway/test/helpers.js';
import {
  adminToken,
  bearer,
  changePackage,
  checkout,
  clientUpgrades,
  count,
  crmClients,
  subscription,
  verify,
  waitForClient,
  waitForCustomer,
} from './helpers.js';

// The built-in test checkout (no Stripe configured), end to end through the all-in-one gateway:
// checkout → pay on the test page → verify → check-subscription → crm client upserted.
describe('billing: test checkout', () => {
  let gw: TestGateway;
  let alice: Person;
  let bob: Person;
  let sessionId: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    alice = await makePerson(gw, 'alice@example.co.uk');
    bob = await makePerson(gw, 'bob@example.co.uk');
    await waitForCustomer(gw, alice.id);
  });
  afterAll(async () => gw?.close());

  it('lists the seven packages publicly, with fees and features, and says the provider is the test checkout', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/api/billing/packages' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.provider).toBe('test');
    expect(body.packages.map((p: { name: string; monthly_fee: number }) => [p.name, p.monthly_fee])).toEqual([
      ['Sole Trader Package', 40],
      ['Partnership Package', 50],
      ['Limited Company Starter', 50],
      ['Growth', 100],
      ['Scale', 150],
      ['Professional', 200],
      ['Enterprise', 300],
    ]);
    expect(body.packages[3].features.length).toBeGreaterThan(2);
  });

  it('needs a signed-in person to check out, and a real package', async () => {
    const anon = await gw.app.inject({ method: 'POST', url: '/api/billing/checkout', payload: { package_name: 'Growth' } });
    expect(anon.statusCode).toBe(401);
    const bad = await checkout(gw, alice.token, 'Gold');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('starts a test checkout that lives on this site', async () => {
    const res = await checkout(gw, alice.token, 'Growth');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.provider).toBe('test');
    expect(body.url).toMatch(/^\/checkout\/test\?session_id=cs_local_[A-Za-z0-9]+$/);
    sessionId = body.session_id;
    expect(body.url).toBe(`/checkout/test?session_id=${sessionId}`);

    const page = await gw.app.inject({ method: 'GET', url: `/api/billing/test-checkout/${sessionId}`, headers: bearer(alice.token) });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ package_name: 'Growth', monthly_fee: 100, status: 'open' });
  });

  it('does not verify a session that has not been paid', async () => {
    const res = await verify(gw, alice.token, sessionId);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(BILLING_MESSAGES.paymentNotCompleted);
    expect(await count(gw, 'select 1 from billing.subscriptions')).toBe(0);
  });

  it("another person can neither see, pay nor verify someone's session", async () => {
    const see = await gw.app.inject({ method: 'GET', url: `/api/billing/test-checkout/${sessionId}`, headers: bearer(bob.token) });
    expect(see.statusCode).toBe(404);
    const pay = await gw.app.inject({ method: 'POST', url: `/api/billing/test-checkout/${sessionId}/pay`, headers: bearer(bob.token) });
    expect(pay.statusCode).toBe(404);
    const verified = await verify(gw, bob.token, sessionId);
    expect(verified.statusCode).toBe(404);
    expect(verified.json().error.message).toBe(MESSAGES.failedToVerifyPayment);
    const unknown = await verify(gw, alice.token, 'cs_local_doesnotexist');
    expect(unknown.statusCode).toBe(404);
  });

  it('pays on the test page, then verification creates one subscription and answers the package, price and features', async () => {
    const pay = await gw.app.inject({ method: 'POST', url: `/api/billing/test-checkout/${sessionId}/pay`, headers: bearer(alice.token) });
    expect(pay.statusCode).toBe(200);
    expect(pay.json()).toMatchObject({ status: 'paid', success_url: `/payment-success?session_id=${sessionId}` });

    const res = await verify(gw, alice.token, sessionId);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      package_name: 'Growth',
      monthly_fee: 100,
      subscription_status: 'active',
      provider: 'test',
    });
    expect(body.features).toEqual([...findPackage('Growth')!.features]);
    const end = new Date(body.subscription_end).getTime();
    expect(end - Date.now()).toBeGreaterThan(27 * 86_400_000);
    expect(end - Date.now()).toBeLessThan(32 * 86_400_000);
  });

  it('replaying verification (refresh, several tabs at once) never makes a second subscription, payment or client', async () => {
    const replies = await Promise.all(Array.from({ length: 5 }, () => verify(gw, alice.token, sessionId)));
    for (const r of replies) expect(r.statusCode).toBe(200);
    expect(new Set(replies.map((r) => r.json().subscription_end)).size).toBe(1);
    expect(await count(gw, 'select 1 from billing.subscriptions where user_id = $1', [alice.id])).toBe(1);
    expect(await count(gw, 'select 1 from billing.payments')).toBe(1);
    expect(await count(gw, `select 1 from billing.outbox where type = 'billing.subscription_activated'`)).toBe(1);
    const client = await waitForClient(gw, alice.id, (c) => c.subscription_status === 'active', 'the client record');
    expect(await crmClients(gw, alice.id)).toHaveLength(1);
    expect(client).toMatchObject({
      contact_email: 'alice@example.co.uk',
      business_type: 'limited',
      package_name: 'Growth',
      monthly_fee: '100.00',
      onboarding_completed: false,
    });
    // alice gave a first name at sign-up and no company: the name is kept, the company is the placeholder.
    expect(client.contact_name).toBe('alice');
    expect(client.company_name).toBe(CLIENT_PLACEHOLDERS.companyName);
    expect(client.next_billing_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('check-subscription answers subscribed, package_name, subscription_end', async () => {
    const res = await subscription(gw, alice.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ subscribed: true, package_name: 'Growth', status: 'active', monthly_fee: 100, provider: 'test' });
    expect(res.json().subscription_end).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const none = await subscription(gw, bob.token);
    expect(none.json()).toMatchObject({ subscribed: false, package_name: null, subscription_end: null });
    const anon = await subscription(gw);
    expect(anon.statusCode).toBe(401);
  });

  it('a subscribed person cannot start a second checkout', async () => {
    const res = await checkout(gw, alice.token, 'Scale', { terms: false });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(BILLING_MESSAGES.alreadySubscribed);
  });

  it('changing package moves the subscription and the client, and records a client_upgrades row', async () => {
    const same = await changePackage(gw, alice.token, 'Growth');
    expect(same.statusCode).toBe(409);
    const none = await changePackage(gw, bob.token, 'Scale');
    expect(none.statusCode).toBe(404);

    const res = await changePackage(gw, alice.token, 'Scale');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ subscribed: true, package_name: 'Scale', monthly_fee: 150 });
    const client = await waitForClient(gw, alice.id, (c) => c.package_name === 'Scale', 'the client on Scale');
    expect(client.monthly_fee).toBe('150.00');
    expect(await clientUpgrades(gw, client.id)).toEqual([{ from_package: 'Growth', to_package: 'Scale', status: 'completed' }]);
  });

  it('admin billing: anonymous 401, a client 403, an administrator sees subscriptions, MRR and failed payments', async () => {
    const anon = await gw.app.inject({ method: 'GET', url: '/api/billing/admin/subscriptions' });
    expect(anon.statusCode).toBe(401);
    const client = await gw.app.inject({ method: 'GET', url: '/api/billing/admin/summary', headers: bearer(alice.token) });
    expect(client.statusCode).toBe(403);
    const staff = await makePerson(gw, 'staff.member@example.co.uk', ['staff']);
    const staffRes = await gw.app.inject({ method: 'GET', url: '/api/billing/admin/summary', headers: bearer(staff.token) });
    expect(staffRes.statusCode).toBe(403);
    const manager = await makePerson(gw, 'manager@example.co.uk', ['manager']);
    const managerRes = await gw.app.inject({ method: 'GET', url: '/api/billing/admin/summary', headers: bearer(manager.token) });
    expect(managerRes.statusCode).toBe(200);

    const token = await adminToken(gw.app);
    const list = await gw.app.inject({ method: 'GET', url: '/api/billing/admin/subscriptions', headers: bearer(token) });
    expect(list.statusCode).toBe(200);
    expect(list.json().total).toBe(1);
    expect(list.json().subscriptions[0]).toMatchObject({
      email: 'alice@example.co.uk',
      package_name: 'Scale',
      monthly_fee: 150,
      status: 'active',
    });
    const summary = await gw.app.inject({ method: 'GET', url: '/api/billing/admin/summary', headers: bearer(token) });
    expect(summary.json()).toMatchObject({
      mrr: 150,
      active: 1,
      overdue: 0,
      cancelled: 0,
      collected_30d: 100,
      failed_payments: [],
      provider: 'test',
    });
  });

  it('the Stripe webhook answers 503 when Stripe is not configured', async () => {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/api/billing/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(503);
  });

  it('the name and company typed at sign-up reach the client record (issue 22)', async () => {
    const email = 'priya@patel-joinery.co.uk';
    const su = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/auth/signup',
      payload: { email, password: 'person-password-1', first_name: ' Priya ', last_name: 'Patel', company_name: 'Patel Joinery Ltd' },
    });
    expect(su.statusCode, su.body).toBe(201);
    const li = await gw.app.inject({ method: 'POST', url: '/api/identity/auth/login', payload: { email, password: 'person-password-1' } });
    const { rows } = await gw.kit.runtime.pool.query('select id from identity.users where email = $1', [email]);
    const userId = rows[0].id as string;
    await waitForCustomer(gw, userId);
    const token = li.json().access_token as string;
    const started = await checkout(gw, token, 'Sole Trader Package');
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json().session_id as string;
    const pay = await gw.app.inject({ method: 'POST', url: `/api/billing/test-checkout/${id}/pay`, headers: bearer(token) });
    expect(pay.statusCode, pay.body).toBe(200);
    expect((await verify(gw, token, id)).statusCode).toBe(200);
    const client = await waitForClient(gw, userId, (c) => c.subscription_status === 'active', 'the signed-up client');
    expect(client).toMatchObject({ company_name: 'Patel Joinery Ltd', contact_name: 'Priya Patel', contact_email: email });
  });
});
