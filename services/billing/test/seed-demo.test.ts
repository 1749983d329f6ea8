import { demoClientFacts } from '@countinghouse/crm';
import { addDays, londonToday, monthlyFeeFor, type BillingSummary, type FailedPaymentsReport, type MrrReport } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../../gateway/test/helpers.js';
import { demoUserId, seedBillingDemo, type DemoBillingClient } from '../src/seed-demo.js';
import { adminToken, bearer, count } from './helpers.js';

async function getJson<T>(gw: TestGateway, token: string, url: string): Promise<T> {
  const r = await gw.app.inject({ method: 'GET', url, headers: bearer(token) });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as T;
}

const fees = (list: readonly DemoBillingClient[], statuses: string[]) =>
  list.filter((c) => c.pkg && statuses.includes(c.status)).reduce((n, c) => n + monthlyFeeFor(c.pkg), 0);

// The launcher's input: crm's demo clients, as plain data.
describe('billing demo seed: crm demo clients', () => {
  let gw: TestGateway;
  let token: string;
  const clients = demoClientFacts();
  const withPackage = clients.filter((c) => c.pkg);

  beforeAll(async () => {
    gw = await startTestGateway();
    token = await adminToken(gw.app);
  });
  afterAll(async () => gw?.close());

  it('seeds once: two concurrent runs and a later one insert one set of rows', async () => {
    const [a, b] = await Promise.all([seedBillingDemo(gw.kit.runtime.db, clients), seedBillingDemo(gw.kit.runtime.db, clients)]);
    expect([a.seeded, b.seeded].sort()).toEqual([false, true]);
    const first = a.seeded ? a : b;
    expect(first.subscriptions).toBe(withPackage.length);
    expect(await count(gw, 'select 1 from billing.subscriptions')).toBe(withPackage.length);
    const paymentRows = await count(gw, 'select 1 from billing.payments');
    expect(paymentRows).toBe(first.payments);
    expect(await seedBillingDemo(gw.kit.runtime.db, clients)).toEqual({ seeded: false, subscriptions: 0, payments: 0 });
    expect(await count(gw, 'select 1 from billing.subscriptions')).toBe(withPackage.length);
    expect(await count(gw, 'select 1 from billing.payments')).toBe(paymentRows);
  });

  it('publishes no events (crm already has these clients)', async () => {
    expect(await count(gw, 'select 1 from billing.outbox')).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(await count(gw, 'select 1 from crm.clients')).toBe(0);
  });

  it('MRR this month is the fees of the active and overdue clients; the line rises over the year', async () => {
    const today = londonToday();
    const from = `${addDays(today, -365).slice(0, 7)}-01`;
    const r = await getJson<MrrReport>(gw, token, `/api/billing/reports/mrr?from=${from}&to=${today}`);
    expect(r.months).toHaveLength(13);
    const last = r.months.at(-1)!;
    expect(last.mrr).toBe(fees(clients, ['active', 'overdue']));
    expect(last.subscriptions).toBe(withPackage.filter((c) => c.status === 'active' || c.status === 'overdue').length);
    expect(r.active_mrr_now).toBe(fees(clients, ['active']));
    expect(r.overdue_mrr_now).toBe(fees(clients, ['overdue']));
    expect(r.months[0]!.mrr).toBeGreaterThan(0);
    expect(r.months[0]!.mrr).toBeLessThan(last.mrr / 4);
  });

  it('the overdue clients have failed payments, the others none; /admin/billing agrees', async () => {
    const { rows } = await gw.kit.runtime.pool.query<{ email: string; status: string; paid: number; failed: number; last: string | null }>(
      `select s.email, s.status,
              count(*) filter (where p.status = 'paid')::int as paid,
              count(*) filter (where p.status = 'failed')::int as failed,
              (array_agg(p.status order by p.occurred_at desc))[1] as last
         from billing.subscriptions s left join billing.payments p on p.subscription_id = s.id
        group by s.email, s.status`,
    );
    for (const c of withPackage) {
      const row = rows.find((r) => r.email === c.email)!;
      expect(row.status, c.email).toBe(c.status);
      if (c.status === 'overdue') expect([row.failed > 0, row.paid > 0, row.last], c.email).toEqual([true, true, 'failed']);
      else expect(row.failed, c.email).toBe(0);
      if (c.status === 'pending') expect(row.paid, c.email).toBe(0);
      else expect(row.paid, c.email).toBeGreaterThan(0);
    }
    const overdue = withPackage.filter((c) => c.status === 'overdue').map((c) => c.email);
    expect(overdue.length).toBeGreaterThan(0);

    const summary = await getJson<BillingSummary>(gw, token, '/api/billing/admin/summary');
    const n = (s: string) => withPackage.filter((c) => c.status === s).length;
    expect(summary).toMatchObject({
      mrr: fees(clients, ['active']),
      active: n('active'),
      overdue: n('overdue'),
      cancelled: n('cancelled'),
      pending: n('pending'),
      provider: 'test',
    });
    expect(summary.collected_30d).toBeGreaterThan(0);
    expect(new Set(summary.failed_payments.map((p) => p.email))).toEqual(new Set(overdue));

    const today = londonToday();
    const failed = await getJson<FailedPaymentsReport>(
      gw,
      token,
      `/api/billing/reports/failed-payments?from=${addDays(today, -365)}&to=${today}`,
    );
    expect(failed.total_count).toBe(summary.failed_payments.length);

    const list = await getJson<{ subscriptions: Array<{ email: string; user_id: string; provider: string }>; total: number }>(
      gw,
      token,
      '/api/billing/admin/subscriptions',
    );
    expect(list.total).toBe(withPackage.length);
    for (const s of list.subscriptions) expect([s.user_id, s.provider]).toEqual([demoUserId(s.email), 'test']);
  });
});

// A hand-computed fixture at a fixed instant: payment days, cancellation, failed payments, MRR by month.
describe('billing demo seed: fixed dates', () => {
  let gw: TestGateway;
  let token: string;
  const now = new Date('2025-06-15T12:00:00Z');
  const clients: DemoBillingClient[] = [
    { company: 'A', email: 'a@demo.example', pkg: 'Growth', status: 'active', daysAgo: 400 }, // 2024-05-11
    { company: 'B', contact: 'Bea', email: 'kestrel@demo.example', pkg: 'Professional', status: 'overdue', daysAgo: 180 }, // 2024-12-17
    { company: 'C', email: 'c@demo.example', pkg: 'Limited Company Starter', status: 'cancelled', daysAgo: 365 }, // 2024-06-15
    { company: 'D', email: 'd@demo.example', pkg: 'Scale', status: 'pending', daysAgo: 6 }, // 2025-06-09
    { company: 'E', email: 'e@demo.example', pkg: null, status: 'active', daysAgo: 100 },
    { company: 'F', email: 'f@demo.example', pkg: 'Bookkeeping Plus', status: 'active', daysAgo: 20 }, // 2025-05-26, default fee 50
    { company: 'G', email: 'g@demo.example', pkg: 'Scale', status: 'overdue', daysAgo: 45 }, // 2025-05-01
  ];

  beforeAll(async () => {
    gw = await startTestGateway();
    token = await adminToken(gw.app);
    expect(await seedBillingDemo(gw.kit.runtime.db, clients, now)).toEqual({ seeded: true, subscriptions: 6, payments: 33 });
  });
  afterAll(async () => gw?.close());

  it('a synthetic user id per e-mail (UUID v5), a customer, the catalogue fee', async () => {
    expect(demoUserId('kestrel@demo.example')).toBe('eb7b4710-5aa7-547c-bca7-83e3aa51b202');
    expect(demoUserId(' Kestrel@Demo.example ')).toBe('eb7b4710-5aa7-547c-bca7-83e3aa51b202');
    const { rows } = await gw.kit.runtime.pool.query(
      `select s.user_id, s.monthly_fee::float as fee, s.checkout_session_id, c.email, c.name
         from billing.subscriptions s join billing.customers c using (user_id) where s.email = 'kestrel@demo.example'`,
    );
    expect(rows).toEqual([
      {
        user_id: 'eb7b4710-5aa7-547c-bca7-83e3aa51b202',
        fee: 200,
        checkout_session_id: 'demo_2',
        email: 'kestrel@demo.example',
        name: 'Bea',
      },
    ]);
    expect(await count(gw, `select 1 from billing.subscriptions where email = 'e@demo.example'`)).toBe(0);
    expect(await count(gw, `select 1 from billing.subscriptions where email = 'f@demo.example' and monthly_fee = 50`)).toBe(1);
  });

  it('one payment per month on the anniversary; cancelled stops; the last ones of an overdue client failed', async () => {
    const { rows } = await gw.kit.runtime.pool.query<{ email: string; status: string; at: string }>(
      `select s.email, p.status, to_char(p.occurred_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as at
         from billing.payments p join billing.subscriptions s on s.id = p.subscription_id order by s.email, p.occurred_at`,
    );
    const of = (email: string) => rows.filter((r) => r.email === email).map((r) => `${r.at.slice(0, 10)} ${r.status}`);
    const a = of('a@demo.example');
    expect(a).toHaveLength(14);
    expect([a[0], a[1], a.at(-1)]).toEqual(['2024-05-11 paid', '2024-06-11 paid', '2025-06-11 paid']);
    expect(of('kestrel@demo.example')).toEqual([
      '2024-12-17 paid',
      '2025-01-17 paid',
      '2025-02-17 paid',
      '2025-03-17 paid',
      '2025-04-17 failed',
      '2025-05-17 failed',
    ]);
    const c = of('c@demo.example');
    expect([c.length, c[0], c.at(-1)]).toEqual([10, '2024-06-15 paid', '2025-03-15 paid']);
    expect(of('d@demo.example')).toEqual([]);
    expect(of('f@demo.example')).toEqual(['2025-05-26 paid']);
    expect(of('g@demo.example')).toEqual(['2025-05-01 paid', '2025-06-01 failed']);
    expect(rows.every((r) => r.at.endsWith('12:00'))).toBe(true);

    const subs = await gw.kit.runtime.pool.query(
      `select email, status, created_at, cancelled_at, current_period_end, updated_at from billing.subscriptions order by email`,
    );
    const sub = (email: string) => subs.rows.find((r) => r.email === email);
    expect(sub('c@demo.example')).toMatchObject({
      status: 'cancelled',
      created_at: new Date('2024-06-15T12:00:00Z'),
      cancelled_at: new Date('2025-04-12T12:00:00Z'),
      current_period_end: new Date('2025-04-15T12:00:00Z'),
      updated_at: new Date('2025-04-12T12:00:00Z'),
    });
    expect(sub('a@demo.example')).toMatchObject({ cancelled_at: null, current_period_end: new Date('2025-07-11T12:00:00Z') });
    expect(sub('d@demo.example')).toMatchObject({
      status: 'pending',
      current_period_end: null,
      created_at: new Date('2025-06-09T12:00:00Z'),
    });
  });

  it('MRR by month and failed payments by month, hand-computed', async () => {
    const r = await getJson<MrrReport>(gw, token, '/api/billing/reports/mrr?from=2024-05-01&to=2025-06-30');
    const steady = (month: string) => ({ month, mrr: 150, subscriptions: 2 }); // A 100 + C 50
    expect(r.months.map(({ month, mrr, subscriptions }) => ({ month, mrr, subscriptions }))).toEqual([
      { month: '2024-05', mrr: 100, subscriptions: 1 }, // A
      ...['2024-06', '2024-07', '2024-08', '2024-09', '2024-10', '2024-11'].map(steady),
      { month: '2024-12', mrr: 350, subscriptions: 3 }, // + B 200
      { month: '2025-01', mrr: 350, subscriptions: 3 },
      { month: '2025-02', mrr: 350, subscriptions: 3 },
      { month: '2025-03', mrr: 350, subscriptions: 3 },
      { month: '2025-04', mrr: 300, subscriptions: 2 }, // C cancelled 12 April
      { month: '2025-05', mrr: 500, subscriptions: 4 }, // + G 150, F 50
      { month: '2025-06', mrr: 500, subscriptions: 4 }, // D pending: not counted
    ]);
    expect([r.active_mrr_now, r.overdue_mrr_now]).toEqual([150, 350]);

    const f = await getJson<FailedPaymentsReport>(gw, token, '/api/billing/reports/failed-payments?from=2025-01-01&to=2025-06-30');
    expect(f.months.filter((m) => m.count > 0)).toEqual([
      { month: '2025-04', count: 1, amount: 200 },
      { month: '2025-05', count: 1, amount: 200 },
      { month: '2025-06', count: 1, amount: 150 },
    ]);
    expect([f.total_count, f.total_amount]).toEqual([3, 550]);
    expect(f.payments.map((p) => p.provider_invoice_id)).toEqual(['in_demo_7_2', 'in_demo_2_6', 'in_demo_2_5']);
    expect(await count(gw, 'select 1 from billing.outbox')).toBe(0);
  });
});
