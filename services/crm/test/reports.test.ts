import { CRM_ROUTES, type ClientsReport, type LeadsReport } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAdminOnly, expectRangeChecks, reportCallers, type ReportCallers } from '../../../gateway/test/report-access.js';
import { bearer, startTestGateway, type TestGateway } from './helpers.js';

// crm's reports against a fixture with hand-computed totals, and the lists they summarise.
// Instants sit on London day edges: 23:30 UTC on 31 March 2025 is 00:30 BST on 1 April.
const CLIENTS = [
  { name: 'Alder', package_name: 'Growth', status: 'active', at: '2025-02-01T10:00:00Z' },
  { name: 'Birch', package_name: 'Growth', status: 'active', at: '2025-03-31T23:30:00Z' },
  { name: 'Cedar', package_name: 'Growth', status: 'pending', at: '2025-05-05T10:00:00Z' },
  { name: 'Damson', package_name: 'Scale', status: 'cancelled', at: '2025-06-06T10:00:00Z' },
  { name: 'Elm', package_name: 'Enterprise', status: 'overdue', at: '2025-07-07T10:00:00Z' },
  { name: 'Fir', package_name: null, status: 'pending', at: '2025-08-08T10:00:00Z' },
  { name: 'Gorse', package_name: 'Bespoke Plan', status: 'active', at: '2025-09-09T10:00:00Z' },
  // Outside 2025 in London: 31 December 2024 (GMT) and 1 January 2026.
  { name: 'Hazel', package_name: 'Growth', status: 'active', at: '2024-12-31T23:30:00Z' },
  { name: 'Ivy', package_name: 'Scale', status: 'active', at: '2026-01-01T00:30:00Z' },
] as const;

const LEADS = [
  ['Website', 'new_enquiry', '2025-01-10T10:00:00Z'],
  ['Website', 'qualified', '2025-02-10T10:00:00Z'],
  ['Website', 'won', '2025-03-31T23:30:00Z'],
  ['Website', 'lost', '2025-04-10T10:00:00Z'],
  ['Referral', 'won', '2025-05-10T10:00:00Z'],
  ['Referral', 'won', '2025-06-10T10:00:00Z'],
  ['Referral', 'proposal_sent', '2025-07-10T10:00:00Z'],
  ['GoHighLevel', 'negotiation', '2025-08-10T10:00:00Z'],
  [null, 'new_enquiry', '2025-09-10T10:00:00Z'],
  [null, 'won', '2025-12-31T23:30:00Z'],
  // 31 December 2024 in London: outside.
  ['Website', 'won', '2024-12-31T23:30:00Z'],
] as const;

describe('crm reports', () => {
  let gw: TestGateway;
  let who: ReportCallers;
  const get = async <T>(url: string) => {
    const r = await gw.app.inject({ method: 'GET', url, headers: bearer(who.panelAdmin) });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as T;
  };
  const listTotal = async (path: string, qs: string) => (await get<{ total: number }>(`${path}?${qs}`)).total;

  beforeAll(async () => {
    gw = await startTestGateway();
    who = await reportCallers(gw, 'crm');
    for (const c of CLIENTS) {
      const r = await gw.app.inject({
        method: 'POST',
        url: CRM_ROUTES.clients,
        headers: bearer(who.panelAdmin),
        payload: {
          company_name: `${c.name} Ltd`,
          contact_email: `${c.name.toLowerCase()}@clients.example`,
          package_name: c.package_name,
          subscription_status: c.status,
          registration_date: c.at,
        },
      });
      expect(r.statusCode, r.body).toBe(201);
    }
    let i = 0;
    for (const [source, stage, at] of LEADS) {
      i += 1;
      const r = await gw.app.inject({
        method: 'POST',
        url: CRM_ROUTES.leads,
        headers: bearer(who.panelAdmin),
        payload: { name: `Lead ${i}`, email: `lead${i}@prospects.example`, stage, ...(source ? { source } : {}) },
      });
      expect(r.statusCode, r.body).toBe(201);
      // The API stamps created_at now; the fixture needs it in the past.
      await gw.kit.runtime.pool.query('update crm.leads set created_at = $2 where id = $1', [r.json().id, at]);
    }
  });
  afterAll(async () => gw?.close());

  it('clients registered in the range, by package and by status', async () => {
    const r = await get<ClientsReport>('/api/crm/reports/clients?from=2025-01-01&to=2025-12-31');
    expect([r.total, r.monthly_fees]).toEqual([7, 850]);
    expect(r.by_status).toEqual([
      { status: 'active', clients: 3, monthly_fees: 250 }, // Alder 100, Birch 100, Gorse 50 (unknown package)
      { status: 'pending', clients: 2, monthly_fees: 150 }, // Cedar 100, Fir 50 (no package)
      { status: 'cancelled', clients: 1, monthly_fees: 150 },
      { status: 'overdue', clients: 1, monthly_fees: 300 },
    ]);
    const zero = { clients: 0, active: 0, pending: 0, cancelled: 0, overdue: 0, monthly_fees: 0 };
    expect(r.by_package).toEqual([
      { package_name: 'Sole Trader Package', ...zero },
      { package_name: 'Partnership Package', ...zero },
      { package_name: 'Limited Company Starter', ...zero },
      { package_name: 'Growth', clients: 3, active: 2, pending: 1, cancelled: 0, overdue: 0, monthly_fees: 300 },
      { package_name: 'Scale', clients: 1, active: 0, pending: 0, cancelled: 1, overdue: 0, monthly_fees: 150 },
      { package_name: 'Professional', ...zero },
      { package_name: 'Enterprise', clients: 1, active: 0, pending: 0, cancelled: 0, overdue: 1, monthly_fees: 300 },
      { package_name: 'Bespoke Plan', clients: 1, active: 1, pending: 0, cancelled: 0, overdue: 0, monthly_fees: 50 },
      { package_name: null, clients: 1, active: 0, pending: 1, cancelled: 0, overdue: 0, monthly_fees: 50 },
    ]);
    // London days: Birch (00:30 BST on 1 April) is in a range starting 1 April.
    const fromApril = await get<ClientsReport>('/api/crm/reports/clients?from=2025-04-01&to=2025-12-31');
    expect([fromApril.total, fromApril.by_status[0]!.clients]).toEqual([6, 2]);
  });

  it('the clients list with the same filters counts the same', async () => {
    const range = 'registered_from=2025-01-01&registered_to=2025-12-31';
    const r = await get<ClientsReport>('/api/crm/reports/clients?from=2025-01-01&to=2025-12-31');
    expect(await listTotal(CRM_ROUTES.clients, range)).toBe(r.total);
    for (const s of r.by_status) expect(await listTotal(CRM_ROUTES.clients, `${range}&status=${s.status}`), s.status).toBe(s.clients);
    const growth = r.by_package.find((p) => p.package_name === 'Growth')!;
    expect(await listTotal(CRM_ROUTES.clients, `${range}&package=Growth`)).toBe(growth.clients);
    expect(await listTotal(CRM_ROUTES.clients, `${range}&package=Growth&status=active`)).toBe(growth.active);
    expect(await listTotal(CRM_ROUTES.clients, 'registered_from=2025-04-01&registered_to=2025-12-31')).toBe(6);
  });

  it('the lead funnel: stages in pipeline order, sources with conversion rates', async () => {
    const r = await get<LeadsReport>('/api/crm/reports/leads?from=2025-01-01&to=2025-12-31');
    expect([r.total, r.won, r.lost, r.conversion_rate]).toEqual([10, 4, 1, 0.4]);
    expect(r.by_stage).toEqual([
      { stage: 'new_enquiry', leads: 2 },
      { stage: 'qualified', leads: 1 },
      { stage: 'proposal_sent', leads: 1 },
      { stage: 'negotiation', leads: 1 },
      { stage: 'won', leads: 4 },
      { stage: 'lost', leads: 1 },
    ]);
    expect(r.by_source).toEqual([
      { source: 'Website', leads: 4, won: 1, lost: 1, open: 2, conversion_rate: 0.25 },
      { source: 'Referral', leads: 3, won: 2, lost: 0, open: 1, conversion_rate: 0.6667 },
      { source: 'GoHighLevel', leads: 1, won: 0, lost: 0, open: 1, conversion_rate: 0 },
      { source: null, leads: 2, won: 1, lost: 0, open: 1, conversion_rate: 0.5 },
    ]);
    const range = 'created_from=2025-01-01&created_to=2025-12-31';
    expect(await listTotal(CRM_ROUTES.leads, range)).toBe(r.total);
    for (const s of r.by_stage) expect(await listTotal(CRM_ROUTES.leads, `${range}&stage=${s.stage}`), s.stage).toBe(s.leads);
    expect(await listTotal(CRM_ROUTES.leads, `${range}&source=Referral`)).toBe(3);
    expect(await listTotal(CRM_ROUTES.leads, `${range}&source=Referral&stage=won`)).toBe(2);
    // From 1 April (London) the 00:30 BST Website win is in, the January and February leads are out.
    const fromApril = await get<LeadsReport>('/api/crm/reports/leads?from=2025-04-01&to=2025-12-31');
    expect(fromApril.by_source[0]).toEqual({ source: 'Referral', leads: 3, won: 2, lost: 0, open: 1, conversion_rate: 0.6667 });
    expect(fromApril.by_source.find((s) => s.source === 'Website')).toEqual({
      source: 'Website',
      leads: 2,
      won: 1,
      lost: 1,
      open: 0,
      conversion_rate: 0.5,
    });
  });

  it('an empty range answers zeros, every stage and catalogue package still listed', async () => {
    const leads = await get<LeadsReport>('/api/crm/reports/leads?from=2020-01-01&to=2020-12-31');
    expect([leads.total, leads.conversion_rate, leads.by_stage.length, leads.by_source]).toEqual([0, 0, 6, []]);
    const clients = await get<ClientsReport>('/api/crm/reports/clients?from=2020-01-01&to=2020-12-31');
    expect([clients.total, clients.by_package.length, clients.by_status.map((s) => s.clients)]).toEqual([0, 7, [0, 0, 0, 0]]);
  });

  it('checks the range', async () => {
    await expectRangeChecks(gw, who.panelAdmin, '/api/crm/reports/clients');
    await expectRangeChecks(gw, who.panelAdmin, '/api/crm/reports/leads');
  });

  it('is for administrators only', async () => {
    await expectAdminOnly(gw, who, '/api/crm/reports/clients?from=2025-01-01&to=2025-12-31');
    await expectAdminOnly(gw, who, '/api/crm/reports/leads?from=2025-01-01&to=2025-12-31');
  });
});
