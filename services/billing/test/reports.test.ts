import { londonToday, type FailedPaymentsReport, type MonthlyRevenue, type MrrReport } from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../../gateway/test/helpers.js';
import { expectAdminOnly, expectRangeChecks, reportCallers, type ReportCallers } from '../../../gateway/test/report-access.js';
import { bearer } from './helpers.js';

// Billing's reports against a fixture with hand-computed totals. Times are UTC instants chosen to
// sit on London month edges (GMT in winter, BST from 30 March 2025).
describe('billing reports', () => {
  let gw: TestGateway;
  let who: ReportCallers;
  const subs: Record<string, string> = {};
  const pay: Record<string, string> = {};

  async function subscription(
    key: string,
    s: { pkg: string; fee: number; status: string; created: string; cancelled?: string; email?: string },
  ) {
    const id = randomUUID();
    subs[key] = id;
    await gw.kit.runtime.pool.query(
      `insert into billing.subscriptions (id, user_id, email, package_name, monthly_fee, status, provider, checkout_session_id, created_at, updated_at, cancelled_at)
       values ($1, $2, $3, $4, $5, $6, 'test', $7, $8, $8, $9)`,
      [id, randomUUID(), s.email ?? `${key}@clients.example`, s.pkg, s.fee, s.status, `cs_${key}`, s.created, s.cancelled ?? null],
    );
  }
  async function payment(key: string, sub: string, amount: number, status: 'paid' | 'failed', at: string) {
    const id = randomUUID();
    pay[key] = id;
    await gw.kit.runtime.pool.query(
      `insert into billing.payments (id, subscription_id, provider_invoice_id, amount, status, occurred_at) values ($1, $2, $3, $4, $5, $6)`,
      [id, subs[sub], `in_${key}`, amount, status, at],
    );
  }
  const get = <T>(url: string, token = who.panelAdmin) =>
    gw.app.inject({ method: 'GET', url, headers: bearer(token) }).then((r) => {
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as T;
    });

  beforeAll(async () => {
    gw = await startTestGateway();
    who = await reportCallers(gw, 'billing');
    await subscription('a', { pkg: 'Growth', fee: 100, status: 'active', created: '2025-01-15T10:00:00Z', email: 'a@clients.example' });
    await subscription('b', {
      pkg: 'Scale',
      fee: 150,
      status: 'cancelled',
      created: '2025-02-10T10:00:00Z',
      cancelled: '2025-04-20T10:00:00Z',
    });
    // 23:30 BST on 31 March: a March subscription.
    await subscription('c', { pkg: 'Enterprise', fee: 300, status: 'overdue', created: '2025-03-31T22:30:00Z' });
    // 00:30 BST on 1 May: a May subscription, although UTC still says 30 April.
    await subscription('d', { pkg: 'Sole Trader Package', fee: 40, status: 'active', created: '2025-04-30T23:30:00Z' });
    // Never paid: never counted.
    await subscription('e', { pkg: 'Limited Company Starter', fee: 50, status: 'pending', created: '2025-01-01T10:00:00Z' });
    // Cancelled one minute before the end of February (GMT): counted in January only.
    await subscription('f', {
      pkg: 'Professional',
      fee: 200,
      status: 'cancelled',
      created: '2025-01-05T10:00:00Z',
      cancelled: '2025-02-28T23:59:00Z',
    });

    await payment('p1', 'c', 300, 'failed', '2025-03-15T09:00:00Z');
    // 00:30 BST on 1 April: April's.
    await payment('p2', 'c', 300, 'failed', '2025-03-31T23:30:00Z');
    await payment('p3', 'a', 100, 'failed', '2025-04-10T09:00:00Z');
    await payment('p4', 'a', 100, 'paid', '2025-04-10T10:00:00Z');
    // 23:00 GMT on 31 December 2024: outside the range.
    await payment('p5', 'b', 150, 'failed', '2024-12-31T23:00:00Z');
  });
  afterAll(async () => gw?.close());

  it('MRR at each month end: started, not yet cancelled, not pending, in London months', async () => {
    const r = await get<MrrReport>('/api/billing/reports/mrr?from=2025-01-01&to=2025-06-30');
    expect(r.months).toEqual([
      { month: '2025-01', as_of: '2025-01-31', mrr: 300, subscriptions: 2 }, // a 100 + f 200
      { month: '2025-02', as_of: '2025-02-28', mrr: 250, subscriptions: 2 }, // a 100 + b 150 (f cancelled)
      { month: '2025-03', as_of: '2025-03-31', mrr: 550, subscriptions: 3 }, // + c 300
      { month: '2025-04', as_of: '2025-04-30', mrr: 400, subscriptions: 2 }, // b cancelled 20 Apr; d not yet
      { month: '2025-05', as_of: '2025-05-31', mrr: 440, subscriptions: 3 }, // + d 40
      { month: '2025-06', as_of: '2025-06-30', mrr: 440, subscriptions: 3 },
    ]);
    // Now: a and d are active (the /admin/billing MRR), c is overdue.
    expect([r.active_mrr_now, r.overdue_mrr_now]).toEqual([140, 300]);
    const summary = await get<{ mrr: number; overdue_fees: number }>('/api/billing/admin/summary');
    expect(summary.mrr).toBe(r.active_mrr_now);
    expect(summary.overdue_fees).toBe(r.overdue_mrr_now);
  });

  it('monthly revenue has one definition: active fees, overdue apart, the same on every screen (issue 22)', async () => {
    const revenue = await get<MonthlyRevenue>('/api/billing/revenue');
    // a 100 + d 40 active; c 300 overdue; b and f cancelled and e pending count nowhere.
    expect(revenue).toEqual({ monthly_revenue: 140, active_subscriptions: 2, overdue_fees: 300, overdue_subscriptions: 1 });
    const summary = await get<{ mrr: number }>('/api/billing/admin/summary');
    const report = await get<MrrReport>('/api/billing/reports/mrr?from=2025-01-01&to=2025-06-30');
    expect([summary.mrr, report.active_mrr_now]).toEqual([revenue.monthly_revenue, revenue.monthly_revenue]);
  });

  it('monthly revenue is a practice figure: admin, manager and staff; not an accountant, a client or nobody', async () => {
    const status = async (token?: string) =>
      (await gw.app.inject({ method: 'GET', url: '/api/billing/revenue', headers: token ? bearer(token) : {} })).statusCode;
    expect({
      panelAdmin: await status(who.panelAdmin),
      personAdmin: await status(who.personAdmin),
      manager: await status(who.manager),
      staff: await status(who.staff),
      accountant: await status(who.accountant),
      client: await status(who.client),
      anonymous: await status(),
    }).toEqual({ panelAdmin: 200, personAdmin: 200, manager: 200, staff: 200, accountant: 403, client: 403, anonymous: 401 });
  });

  it('a range ending mid-month is measured at its last day; months not yet begun are left out', async () => {
    const r = await get<MrrReport>('/api/billing/reports/mrr?from=2025-03-01&to=2025-04-15');
    expect(r.months).toEqual([
      { month: '2025-03', as_of: '2025-03-31', mrr: 550, subscriptions: 3 },
      { month: '2025-04', as_of: '2025-04-15', mrr: 550, subscriptions: 3 }, // b still live on 15 April
    ]);
    const today = londonToday();
    const thisMonth = `${today.slice(0, 7)}-01`;
    const ahead = await get<MrrReport>(`/api/billing/reports/mrr?from=${thisMonth}&to=${Number(today.slice(0, 4)) + 1}-12-31`);
    expect(ahead.months).toEqual([{ month: today.slice(0, 7), as_of: today, mrr: 440, subscriptions: 3 }]);
  });

  it('failed payments per London month, totals and the list agree', async () => {
    const r = await get<FailedPaymentsReport>('/api/billing/reports/failed-payments?from=2025-01-01&to=2025-06-30');
    expect(r.months).toEqual([
      { month: '2025-01', count: 0, amount: 0 },
      { month: '2025-02', count: 0, amount: 0 },
      { month: '2025-03', count: 1, amount: 300 },
      { month: '2025-04', count: 2, amount: 400 },
      { month: '2025-05', count: 0, amount: 0 },
      { month: '2025-06', count: 0, amount: 0 },
    ]);
    expect([r.total_count, r.total_amount]).toEqual([3, 700]);
    expect(r.payments.map((p) => p.id)).toEqual([pay.p3, pay.p2, pay.p1]);
    expect(r.payments[0]).toMatchObject({ email: 'a@clients.example', package_name: 'Growth', amount: 100, provider_invoice_id: 'in_p3' });
    expect(r.payments.length).toBe(r.total_count);
    expect(r.payments.reduce((n, p) => n + p.amount, 0)).toBe(r.total_amount);
    const december = await get<FailedPaymentsReport>('/api/billing/reports/failed-payments?from=2024-12-01&to=2024-12-31');
    expect([december.total_count, december.total_amount, december.payments.map((p) => p.id)]).toEqual([1, 150, [pay.p5]]);
  });

  it('checks the range', async () => {
    await expectRangeChecks(gw, who.panelAdmin, '/api/billing/reports/mrr');
    await expectRangeChecks(gw, who.panelAdmin, '/api/billing/reports/failed-payments');
  });

  it('is for administrators only', async () => {
    await expectAdminOnly(gw, who, '/api/billing/reports/mrr?from=2025-01-01&to=2025-06-30');
    await expectAdminOnly(gw, who, '/api/billing/reports/failed-payments?from=2025-01-01&to=2025-06-30');
  });
});
