import { BILLING_MESSAGES, ENGAGEMENT_MESSAGES, SIGNUP_MESSAGES } from '@countinghouse/proto';
import { waitFor } from '@countinghouse/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePerson, startTestGateway, type Person, type TestGateway } from '../../../gateway/test/helpers.js';
import { acceptTerms, adminToken, bearer, checkout, count, verify, waitForClient, waitForCustomer } from './helpers.js';

// Terms before payment (issue 33): the client signs the engagement letter for the package they chose,
// then pays; billing refuses a checkout without it; after the payment the signed letter is the client's
// (crm's id), filed in their documents, and no second letter is sent.
describe('billing: terms before payment', () => {
  let gw: TestGateway;
  let carol: Person;
  let letterId: string;

  const terms = (token: string, pkg: string) =>
    gw.app.inject({ method: 'POST', url: '/api/engagement/terms', headers: bearer(token), payload: { package_name: pkg } });

  beforeAll(async () => {
    gw = await startTestGateway();
    carol = await makePerson(gw, 'carol@example.co.uk');
    await waitForCustomer(gw, carol.id);
  });
  afterAll(async () => gw?.close());

  it('refuses a checkout before the letter is accepted: 409 with a clear message, nothing started', async () => {
    const res = await checkout(gw, carol.token, 'Growth', { terms: false });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'TERMS_NOT_ACCEPTED', message: BILLING_MESSAGES.termsNotAccepted('Growth') });
    expect(res.json().error.message).toBe(
      'Please read and accept the engagement letter for the Growth package before paying. Nothing has been charged.',
    );
    expect(await count(gw, 'select 1 from billing.checkout_sessions where user_id = $1', [carol.id])).toBe(0);
  });

  it('gives the client the letter for the chosen package to read, the same one when asked again', async () => {
    const first = await waitFor(async () => {
      const r = await terms(carol.token, 'Growth');
      return r.statusCode === 200 ? r : null;
    }, 'the letter');
    const body = first.json();
    expect(body.accepted).toBe(false);
    expect(body.letter).toMatchObject({ package_name: 'Growth', monthly_fee: 100, version: 1, status: 'awaiting_signature' });
    expect(body.letter.text).toContain('Growth');
    letterId = body.letter.id;
    const again = await terms(carol.token, 'Growth');
    expect(again.json().letter.id).toBe(letterId);
    // Not yet the practice's client: no awaiting-signature count, no row in the staff's list.
    const admin = await adminToken(gw.app);
    const overview = await gw.app.inject({ method: 'GET', url: '/api/engagement/overview', headers: bearer(admin) });
    expect(overview.json().awaiting_signature).toBe(0);
    const statuses = await gw.app.inject({ method: 'GET', url: '/api/engagement/statuses', headers: bearer(admin) });
    expect(statuses.json().statuses).toEqual([]);
  });

  it('only a signed-in client asks for terms; staff and strangers are refused', async () => {
    const anon = await gw.app.inject({ method: 'POST', url: '/api/engagement/terms', payload: { package_name: 'Growth' } });
    expect(anon.statusCode).toBe(401);
    const staff = await makePerson(gw, 'steve@example.co.uk', ['staff']);
    expect((await terms(staff.token, 'Growth')).statusCode).toBe(403);
    const admin = await adminToken(gw.app);
    expect((await terms(admin, 'Growth')).statusCode).toBe(403);
    const bad = await terms(carol.token, 'Gold');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('after signing, the checkout for that package starts; another package still needs its own letter', async () => {
    expect(await acceptTerms(gw, carol.token, 'Growth')).toBe(letterId);
    expect((await terms(carol.token, 'Growth')).json()).toMatchObject({ accepted: true, letter: { id: letterId, status: 'signed' } });
    const other = await checkout(gw, carol.token, 'Scale', { terms: false });
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('TERMS_NOT_ACCEPTED');
    const res = await checkout(gw, carol.token, 'Growth', { terms: false });
    expect(res.statusCode).toBe(200);
    // Not filed in documents yet: there is no client record to file it under.
    expect(await count(gw, `select 1 from engagement.outbox where type = 'engagement.letter_signed'`)).toBe(0);
  });

  it("after paying, the signed letter is the client record's, in their documents, and never asked for again", async () => {
    const sessionId = (await checkout(gw, carol.token, 'Growth', { terms: false })).json().session_id as string;
    await gw.app.inject({ method: 'POST', url: `/api/billing/test-checkout/${sessionId}/pay`, headers: bearer(carol.token) });
    expect((await verify(gw, carol.token, sessionId)).statusCode).toBe(200);
    const client = await waitForClient(gw, carol.id, (c) => c.package_name === 'Growth', 'the client record');
    const letters = await waitFor(async () => {
      const { rows } = await gw.kit.runtime.pool.query<{ id: string; client_id: string; signed_at: Date | null }>(
        'select id, client_id, signed_at from engagement.letters where client_id = $1',
        [client.id],
      );
      return rows.length ? rows : null;
    }, 'the letter adopted');
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({ id: letterId, client_id: client.id });
    expect(letters[0]!.signed_at).not.toBeNull();
    expect(await count(gw, `select 1 from engagement.letters where client_id like 'prospect:%'`)).toBe(0);
    // The signed PDF reaches the client's documents once.
    await waitFor(
      async () => (await count(gw, 'select 1 from documents.client_documents where client_id = $1', [client.id])) === 1,
      'PDF filed',
    );
    const mine = await gw.app.inject({ method: 'GET', url: '/api/engagement/mine', headers: bearer(carol.token) });
    expect(mine.json().clients).toHaveLength(1);
    expect(mine.json().clients[0]).toMatchObject({ client_id: client.id, status: 'signed', to_sign: null });
    expect(ENGAGEMENT_MESSAGES.checklistItem).toBe('Sign your engagement letter');
  });

  it('the adopted signed letter still refuses any other change', async () => {
    await expect(
      gw.kit.runtime.pool.query(`update engagement.letters set client_id = 'someone-else' where id = $1`, [letterId]),
    ).rejects.toThrow(/never changed/);
    await expect(gw.kit.runtime.pool.query(`update engagement.letters set signer_name = 'X' where id = $1`, [letterId])).rejects.toThrow(
      /never changed/,
    );
  });

  const signup = (payload: Record<string, unknown>) => gw.app.inject({ method: 'POST', url: '/api/identity/auth/signup', payload });

  /** Sign in as the person just signed up, pay for a package on the test checkout, and wait for their client record. */
  async function signInAndPay(credentials: { email: string; password: string }, packageName: string) {
    const li = await gw.app.inject({ method: 'POST', url: '/api/identity/auth/login', payload: credentials });
    const token = li.json().access_token as string;
    const userId = li.json().user.user_id as string;
    await waitForCustomer(gw, userId);
    const sessionId = (await checkout(gw, token, packageName)).json().session_id as string;
    await gw.app.inject({ method: 'POST', url: `/api/billing/test-checkout/${sessionId}/pay`, headers: bearer(token) });
    expect((await verify(gw, token, sessionId)).statusCode).toBe(200);
    const client = await waitForClient(gw, userId, (c) => c.package_name === packageName, `the client record (${packageName})`);
    return { userId, client };
  }

  it('a sign-up that knows the business: a limited company must name itself; type and phone reach the client record', async () => {
    const base = { email: 'dev@devwidgets.co.uk', password: 'a-long-pass-phrase-33' };
    const noName = await signup({ ...base, business_type: 'limited' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().error.message).toBe(SIGNUP_MESSAGES.companyNameRequired);
    const badNumber = await signup({ ...base, business_type: 'limited', company_name: 'Dev Widgets Ltd', company_number: 'ABC' });
    expect(badNumber.statusCode).toBe(400);
    const badPhone = await signup({ ...base, business_type: 'limited', company_name: 'Dev Widgets Ltd', phone: 'call me' });
    expect(badPhone.statusCode).toBe(400);
    const ok = await signup({
      ...base,
      business_type: 'partnership',
      company_name: 'Dev & Co',
      company_number: '1234567',
      phone: '020 7946 0000',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const { userId, client } = await signInAndPay(base, 'Partnership Package');
    expect(client).toMatchObject({ company_name: 'Dev & Co', business_type: 'partnership' });
    const { rows } = await gw.kit.runtime.pool.query('select contact_phone from crm.clients where user_id = $1', [userId]);
    expect(rows[0].contact_phone).toBe('020 7946 0000');
    const { rows: c } = await gw.kit.runtime.pool.query('select company_number from billing.customers where user_id = $1', [userId]);
    expect(c[0].company_number).toBe('01234567');
  });

  it('an LLP (decision 664): must name itself too, and becomes a client record of type LLP with its OC number', async () => {
    const base = { email: 'partners@ledgerllp.co.uk', password: 'a-long-pass-phrase-664' };
    const noName = await signup({ ...base, business_type: 'llp', company_name: '  ' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().error.details[0].path).toBe('/company_name');
    expect(
      (await signup({ ...base, business_type: 'llp', company_name: 'Ledger Partners LLP', company_number: 'oc412345' })).statusCode,
    ).toBe(201);
    const { userId, client } = await signInAndPay(base, 'Growth');
    expect(client).toMatchObject({ company_name: 'Ledger Partners LLP', business_type: 'llp' });
    const { rows } = await gw.kit.runtime.pool.query('select company_number from billing.customers where user_id = $1', [userId]);
    expect(rows[0].company_number).toBe('OC412345');
  });
});
