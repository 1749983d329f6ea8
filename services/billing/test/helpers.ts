import { waitFor } from '@countinghouse/kit/testing';
import type { App } from '@countinghouse/kit';
import { findPackage } from '@countinghouse/proto';
import { ADMIN, bearer, type TestGateway } from '../../../gateway/test/helpers.js';

export async function adminToken(app: App): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/identity/admin/login', payload: ADMIN });
  if (res.statusCode !== 200) throw new Error(`admin login failed: ${res.body}`);
  return res.json().session_token as string;
}

export interface ClientRow {
  id: string;
  user_id: string;
  company_name: string;
  contact_name: string | null;
  contact_email: string;
  business_type: string;
  package_name: string | null;
  monthly_fee: string;
  subscription_status: string;
  next_billing_date: string | null;
  onboarding_completed: boolean;
}

export async function crmClients(gw: TestGateway, userId: string): Promise<ClientRow[]> {
  const { rows } = await gw.kit.runtime.pool.query<ClientRow>(
    `select id, user_id, company_name, contact_name, contact_email, business_type, package_name, monthly_fee::text,
            subscription_status, next_billing_date::text, onboarding_completed
       from crm.clients where user_id = $1`,
    [userId],
  );
  return rows;
}

/** Wait until crm's client for this person matches (the event travels through the outbox relay). */
export async function waitForClient(gw: TestGateway, userId: string, check: (c: ClientRow) => boolean, label: string) {
  return waitFor(async () => {
    const rows = await crmClients(gw, userId);
    return rows.length === 1 && check(rows[0]!) ? rows[0]! : null;
  }, label);
}

/** Wait until billing has the person's e-mail (identity.user_registered consumed). */
export async function waitForCustomer(gw: TestGateway, userId: string) {
  await waitFor(async () => {
    const { rows } = await gw.kit.runtime.pool.query('select 1 from billing.customers where user_id = $1', [userId]);
    return rows.length === 1;
  }, `billing.customers row for ${userId}`);
}

export async function count(gw: TestGateway, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await gw.kit.runtime.pool.query<{ n: number }>(`select count(*)::int as n from (${sql}) q`, params);
  return rows[0]!.n;
}

export { bearer };

/**
 * Terms before payment (issue 33): the person asks for the package's engagement letter and signs it,
 * then billing learns it (engagement.terms_accepted). Returns the letter's id.
 */
export async function acceptTerms(gw: TestGateway, token: string, packageName: string): Promise<string> {
  const letter = await waitFor(async () => {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/api/engagement/terms',
      headers: bearer(token),
      payload: { package_name: packageName },
    });
    if (res.statusCode === 409) return null; // the sign-up has not reached engagement yet
    if (res.statusCode !== 200) throw new Error(`terms failed: ${res.body}`);
    return res.json() as { letter: { id: string }; accepted: boolean };
  }, `engagement letter for ${packageName}`);
  if (!letter.accepted) {
    const signed = await gw.app.inject({
      method: 'POST',
      url: `/api/engagement/letters/${letter.letter.id}/sign`,
      headers: bearer(token),
      payload: { full_name: 'Test Client', agree: true },
    });
    if (signed.statusCode !== 200) throw new Error(`sign failed: ${signed.body}`);
  }
  await waitFor(async () => {
    const { rows } = await gw.kit.runtime.pool.query('select 1 from billing.accepted_terms where letter_id = $1', [letter.letter.id]);
    return rows.length === 1;
  }, `billing learns the terms for ${packageName}`);
  return letter.letter.id;
}

/**
 * POST /api/billing/checkout for a package, as this person, after accepting the package's terms (a
 * real package only; `terms: false` skips that, to see the refusal).
 */
export async function checkout(gw: TestGateway, token: string, packageName: string, opts: { terms?: boolean } = {}) {
  if (opts.terms !== false && findPackage(packageName)) await acceptTerms(gw, token, packageName);
  return gw.app.inject({ method: 'POST', url: '/api/billing/checkout', headers: bearer(token), payload: { package_name: packageName } });
}

/** POST /api/billing/verify for a checkout session, as this person. */
export function verify(gw: TestGateway, token: string, sessionId: string) {
  return gw.app.inject({ method: 'POST', url: '/api/billing/verify', headers: bearer(token), payload: { session_id: sessionId } });
}

/** POST /api/billing/subscription/package: move this person's subscription to another package. */
export function changePackage(gw: TestGateway, token: string, packageName: string) {
  return gw.app.inject({
    method: 'POST',
    url: '/api/billing/subscription/package',
    headers: bearer(token),
    payload: { package_name: packageName },
  });
}

/** GET /api/billing/subscription, as this person (or anonymously). */
export function subscription(gw: TestGateway, token?: string) {
  return gw.app.inject({ method: 'GET', url: '/api/billing/subscription', ...(token ? { headers: bearer(token) } : {}) });
}

/** crm's client_upgrades rows for a client. */
export async function clientUpgrades(gw: TestGateway, clientId: string) {
  const { rows } = await gw.kit.runtime.pool.query(
    'select from_package, to_package, status from crm.client_upgrades where client_id = $1',
    [clientId],
  );
  return rows;
}
