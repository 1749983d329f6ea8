import { demoClientFacts, seedCrmDemo } from '@countinghouse/crm';
import { seedBillingDemo } from '@countinghouse/billing';
import { DEMO_PEOPLE, seedIdentityDemo } from '@countinghouse/identity';
import { isPackageName, type BillingSummary, type MonthlyRevenue, type MrrReport } from '@countinghouse/proto';
import { waitFor } from '@countinghouse/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, startTestGateway, type TestGateway } from './helpers.js';
import { acceptTerms } from '../../services/billing/test/helpers.js';

// The demo practice as `npm start` seeds it on a fresh data folder (identity, crm, billing in that order):
// its clients are on the catalogue's packages, a demo client can complete the test checkout, and the
// monthly revenue is one figure everywhere (issue 22).
// the demo people's password, chosen as DEMO_PASSWORD would (the seed generates one otherwise)
const DEMO_PASSWORD = 'Demo-Practice-Pass-7';

describe('the demo practice', () => {
  let gw: TestGateway;
  let admin: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    await seedIdentityDemo(gw.kit.runtime.db, { nodeEnv: 'test', password: DEMO_PASSWORD });
    await seedCrmDemo(gw.kit.runtime.db);
    await seedBillingDemo(gw.kit.runtime.db, demoClientFacts());
    admin = (await login(gw.app)).json().session_token as string;
  }, 60_000);
  afterAll(async () => gw?.close());

  it('puts every demo client with a package on one of the seven packages', () => {
    const off = demoClientFacts().filter((c) => c.pkg !== null && !isPackageName(c.pkg));
    expect(off.map((c) => `${c.company}: ${c.pkg}`)).toEqual([]);
  });

  it("lets a demo client complete the test checkout; the client record takes the demo person's name and company", async () => {
    const person = DEMO_PEOPLE.find((p) => p.role === 'client')!;
    const li = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/auth/login',
      payload: { email: person.email, password: DEMO_PASSWORD },
    });
    expect(li.statusCode, li.body).toBe(200);
    const token = li.json().access_token as string;
    const userId = li.json().user.user_id as string;
    // billing learns the demo client's e-mail from identity's event, as for anyone who signs up.
    await waitFor(async () => {
      const { rows } = await gw.kit.runtime.pool.query('select 1 from billing.customers where user_id = $1', [userId]);
      return rows.length === 1;
    }, 'billing knows the demo client');
    // Terms before payment (issue 33): the demo client signs the Growth letter first.
    await acceptTerms(gw, token, 'Growth');
    const started = await gw.app.inject({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: bearer(token),
      payload: { package_name: 'Growth' },
    });
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json().session_id as string;
    const pay = await gw.app.inject({ method: 'POST', url: `/api/billing/test-checkout/${id}/pay`, headers: bearer(token) });
    expect(pay.statusCode, pay.body).toBe(200);
    const verified = await gw.app.inject({
      method: 'POST',
      url: '/api/billing/verify',
      headers: bearer(token),
      payload: { session_id: id },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const client = await waitFor(async () => {
      const { rows } = await gw.kit.runtime.pool.query<{ company_name: string; contact_name: string; package_name: string }>(
        'select company_name, contact_name, package_name from crm.clients where user_id = $1',
        [userId],
      );
      return rows[0] ?? null;
    }, 'the demo client record');
    expect(client).toEqual({ company_name: person.company, contact_name: `${person.first} ${person.last}`, package_name: 'Growth' });
  });

  it('gives one monthly revenue on the control panel, Billing and Reports', async () => {
    const get = async <T>(url: string) => {
      const r = await gw.app.inject({ method: 'GET', url, headers: bearer(admin) });
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as T;
    };
    const revenue = await get<MonthlyRevenue>('/api/billing/revenue');
    const summary = await get<BillingSummary>('/api/billing/admin/summary');
    const report = await get<MrrReport>('/api/billing/reports/mrr?from=2026-01-01&to=2026-01-31');
    expect(revenue.monthly_revenue).toBeGreaterThan(0);
    expect(revenue.overdue_fees).toBeGreaterThan(0);
    expect(summary.mrr).toBe(revenue.monthly_revenue);
    expect(report.active_mrr_now).toBe(revenue.monthly_revenue);
    expect([summary.overdue_fees, report.overdue_mrr_now]).toEqual([revenue.overdue_fees, revenue.overdue_fees]);
  });
});
