import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DOCUMENT_TYPE_VALUES,
  type ClientsReport,
  type FailedPaymentsReport,
  type LeadsReport,
  type MrrReport,
  type UploadsReport,
} from '@countinghouse/proto';
import { apiError, json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { csvField, toCsv } from './csv';
import { ReportsPage } from './ReportsPage';

const RANGE = { from: '2025-01-01', to: '2025-03-31' };
const types = (by: Record<string, number>) => ({ ...Object.fromEntries(DOCUMENT_TYPE_VALUES.map((t) => [t, 0])), ...by });

const MRR: MrrReport = {
  ...RANGE,
  months: [
    { month: '2025-01', as_of: '2025-01-31', mrr: 300, subscriptions: 2 },
    { month: '2025-02', as_of: '2025-02-28', mrr: 250, subscriptions: 2 },
    { month: '2025-03', as_of: '2025-03-31', mrr: 1550.5, subscriptions: 3 },
  ],
  active_mrr_now: 1250.5,
  overdue_mrr_now: 300,
};
const zeroPkg = { clients: 0, active: 0, pending: 0, cancelled: 0, overdue: 0, monthly_fees: 0 };
const CLIENTS: ClientsReport = {
  ...RANGE,
  total: 4,
  monthly_fees: 400,
  by_package: [
    { package_name: 'Sole Trader Package', ...zeroPkg },
    { package_name: 'Growth', clients: 3, active: 2, pending: 1, cancelled: 0, overdue: 0, monthly_fees: 300 },
    { package_name: 'Smith, Jones & "Co" plan', clients: 1, active: 1, pending: 0, cancelled: 0, overdue: 0, monthly_fees: 50 },
    { package_name: null, ...zeroPkg },
  ],
  by_status: [
    { status: 'active', clients: 3, monthly_fees: 250 },
    { status: 'pending', clients: 1, monthly_fees: 100 },
    { status: 'cancelled', clients: 0, monthly_fees: 0 },
    { status: 'overdue', clients: 0, monthly_fees: 0 },
  ],
};
const LEADS: LeadsReport = {
  ...RANGE,
  total: 10,
  won: 4,
  lost: 1,
  conversion_rate: 0.4,
  by_stage: [
    { stage: 'new_enquiry', leads: 2 },
    { stage: 'qualified', leads: 1 },
    { stage: 'proposal_sent', leads: 1 },
    { stage: 'negotiation', leads: 1 },
    { stage: 'won', leads: 4 },
    { stage: 'lost', leads: 1 },
  ],
  by_source: [
    { source: 'Website', leads: 4, won: 1, lost: 1, open: 2, conversion_rate: 0.25 },
    { source: 'Referral', leads: 3, won: 2, lost: 0, open: 1, conversion_rate: 0.6667 },
    { source: null, leads: 3, won: 1, lost: 0, open: 2, conversion_rate: 0.3333 },
  ],
};
const UPLOADS: UploadsReport = {
  ...RANGE,
  total: 5,
  by_type: types({ vat: 3, payroll: 2 }),
  weeks: [
    { week: '2025-W01', week_start: '2024-12-30', total: 3, by_type: types({ vat: 2, payroll: 1 }) },
    { week: '2025-W02', week_start: '2025-01-06', total: 2, by_type: types({ vat: 1, payroll: 1 }) },
  ],
};
const FAILED: FailedPaymentsReport = {
  ...RANGE,
  months: [
    { month: '2025-01', count: 0, amount: 0 },
    { month: '2025-02', count: 1, amount: 100 },
    { month: '2025-03', count: 2, amount: 450 },
  ],
  total_count: 3,
  total_amount: 550,
  payments: [
    {
      id: '11111111-1111-4111-8111-111111111111',
      subscription_id: '22222222-2222-4222-8222-222222222222',
      email: 'owner@acme.example',
      package_name: 'Enterprise',
      amount: 300,
      provider_invoice_id: 'in_1',
      occurred_at: '2025-03-31T23:30:00Z',
    },
  ],
};

const ROUTES = {
  'GET /api/billing/reports/mrr': () => json(200, MRR),
  'GET /api/billing/reports/failed-payments': () => json(200, FAILED),
  'GET /api/crm/reports/clients': () => json(200, CLIENTS),
  'GET /api/crm/reports/leads': () => json(200, LEADS),
  'GET /api/documents/reports/uploads': () => json(200, UPLOADS),
};

const at = (query = `?from=${RANGE.from}&to=${RANGE.to}`) =>
  renderAt(`/admin/reports${query}`, { routes: [{ path: '/admin/reports', element: <ReportsPage /> }] });

const card = async (title: string) =>
  (await screen.findByText(title, { selector: '.ant-card-head-title' })).closest('.ant-card') as HTMLElement;

function captureDownloads() {
  const blobs: Blob[] = [];
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: vi.fn((b: Blob) => (blobs.push(b), 'blob:report')), revokeObjectURL: vi.fn() }),
  );
  const clicked: HTMLAnchorElement[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this);
  });
  return { blobs, clicked };
}

afterEach(() => vi.restoreAllMocks());

describe('/admin/reports', { timeout: 60_000 }, () => {
  it('asks every owning service for the range and draws the figures', async () => {
    const { calls } = mockFetch(ROUTES);
    at();
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.path.includes('/reports/'))).toHaveLength(5));

    // Headline cards: monthly revenue (active now, as on the control panel and Billing), new clients,
    // leads with conversion, documents, failed payments.
    const mrrStat = (await screen.findByText('Active subscriptions now; £300.00 overdue apart')).closest('.ant-card') as HTMLElement;
    expect(mrrStat).toHaveTextContent('Monthly Revenue£1,250.50');
    expect(screen.getByText('40.0% won')).toBeInTheDocument();
    expect(screen.getByText('£550.00')).toBeInTheDocument();

    // Charts are images described in words, with the table beneath.
    expect(
      screen.getByRole('img', { name: 'Subscription fees at each month end: Jan 2025 £300.00, Feb 2025 £250.00, Mar 2025 £1,550.50' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: /^Leads by stage, in pipeline order: New Enquiry 2, Qualified 1, .*Won 4, Lost 1$/ }),
    ).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /Referral 3 leads, 2 won \(66\.7%\)/ })).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: /^Documents uploaded per week by type, 5 in all: VAT Returns 3, .*Payroll 2/ }),
    ).toBeInTheDocument();
    const packages = within(await card('Clients by package'));
    expect(packages.getByRole('img', { name: /^Clients registered by package/ }).querySelectorAll('rect')).toHaveLength(3); // Growth active, Growth pending, the other plan
    const growth = packages.getByRole('region', { name: 'Clients by package (table)' }).querySelectorAll('tr.ant-table-row')[1]!;
    expect(growth).toHaveTextContent('Growth21003£300.00');

    const funnel = within(await card('Lead funnel by stage'));
    expect(funnel.getByText('4 · 40.0%')).toBeInTheDocument();
    const weeks = within(await card('Documents uploaded per week'));
    expect(weeks.getByRole('region', { name: 'Documents uploaded per week (table)' })).toHaveTextContent('2025-W0130 Dec 2024');
    const failed = within(await card('Failed payments'));
    expect(failed.getByText('owner@acme.example')).toBeInTheDocument();
    expect(failed.getByText('01 Apr 2025')).toBeInTheDocument(); // 23:30 UTC on 31 March is 1 April in London
  });

  it('downloads each table as CSV: escaped, en-GB dates, pounds with two decimals, the range in the name', async () => {
    mockFetch(ROUTES);
    const { blobs, clicked } = captureDownloads();
    at();
    const user = userEvent.setup();
    await screen.findByText('Active subscriptions now; £300.00 overdue apart');
    await screen.findByText('owner@acme.example');

    await user.click(screen.getByRole('button', { name: 'Download CSV: Subscription fees at each month end' }));
    expect(clicked.at(-1)!.download).toBe('countinghouse-subscription-fees-2025-01-01-to-2025-03-31.csv');
    const bytes = new Uint8Array(await blobs.at(-1)!.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // Excel reads it as UTF-8
    expect(blobs.at(-1)!.type).toContain('text/csv');
    expect(await blobs.at(-1)!.text()).toBe(
      'Month,Measured at end of,Subscriptions,Fees (GBP)\r\n' +
        'Jan 2025,31/01/2025,2,300.00\r\n' +
        'Feb 2025,28/02/2025,2,250.00\r\n' +
        'Mar 2025,31/03/2025,3,1550.50\r\n',
    );

    await user.click(screen.getByRole('button', { name: 'Download CSV: Clients by package' }));
    expect(clicked.at(-1)!.download).toBe('countinghouse-clients-by-package-2025-01-01-to-2025-03-31.csv');
    expect(await blobs.at(-1)!.text()).toBe(
      'Package,Active,Pending,Cancelled,Overdue,Total,Monthly fees (GBP)\r\n' +
        'Sole Trader Package,0,0,0,0,0,0.00\r\n' +
        'Growth,2,1,0,0,3,300.00\r\n' +
        '"Smith, Jones & ""Co"" plan",1,0,0,0,1,50.00\r\n' +
        'No package,0,0,0,0,0,0.00\r\n',
    );

    await user.click(screen.getByRole('button', { name: 'Download CSV: Leads by source' }));
    expect(await blobs.at(-1)!.text()).toBe(
      'Source,Leads,Won,Lost,Open,Conversion (%)\r\n' +
        'Website,4,1,1,2,25.0\r\n' +
        'Referral,3,2,0,1,66.7\r\n' +
        'No source,3,1,0,2,33.3\r\n',
    );

    await user.click(screen.getByRole('button', { name: 'Download CSV: Failed payments' }));
    expect(clicked.at(-1)!.download).toBe('countinghouse-failed-payments-2025-01-01-to-2025-03-31.csv');
    expect(await blobs.at(-1)!.text()).toBe(
      'Date,Client e-mail,Package,Amount (GBP),Invoice\r\n01/04/2025,owner@acme.example,Enterprise,300.00,in_1\r\n',
    );

    await user.click(screen.getByRole('button', { name: 'Download CSV: Documents uploaded per week' }));
    const weeks = (await blobs.at(-1)!.text()).split('\r\n');
    expect(weeks[0]).toBe(
      // signed engagement letters are filed as documents too (by the product, not uploaded by hand)
      // (and the types a client chooses for what a request asks for, issue 28)
      'Week,Starting,VAT Returns,PAYE & Payroll,CIS Returns,Self Assessment,Corporation Tax,Bookkeeping,Payroll,Advisory,General,Bank statements,Receipts,Sales invoices,Identity document,Other,Engagement Letters,Total',
    );
    expect(weeks[1]).toBe('2025-W01,30/12/2024,2,0,0,0,0,0,1,0,0,0,0,0,0,0,0,3');
  });

  it('CSV fields: quotes, commas, line breaks, spaces and formula-looking text', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(' padded')).toBe('" padded"');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('+44 20 7946 0000')).toBe("'+44 20 7946 0000");
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvField(null)).toBe('');
    expect(toCsv(['a', 'b'], [[1, 'x,y']])).toBe('a,b\r\n1,"x,y"\r\n');
  });

  it('says when a range has nothing, per chart', async () => {
    mockFetch({
      'GET /api/billing/reports/mrr': () => json(200, { ...MRR, months: [] }),
      'GET /api/billing/reports/failed-payments': () =>
        json(200, {
          ...FAILED,
          months: FAILED.months.map((m) => ({ ...m, count: 0, amount: 0 })),
          total_count: 0,
          total_amount: 0,
          payments: [],
        }),
      'GET /api/crm/reports/clients': () =>
        json(200, {
          ...CLIENTS,
          total: 0,
          monthly_fees: 0,
          by_package: [],
          by_status: CLIENTS.by_status.map((s) => ({ ...s, clients: 0 })),
        }),
      'GET /api/crm/reports/leads': () => json(200, { ...LEADS, total: 0, won: 0, lost: 0, conversion_rate: 0, by_source: [] }),
      'GET /api/documents/reports/uploads': () => json(200, { ...UPLOADS, total: 0, weeks: [] }),
    });
    at();
    expect(await screen.findByText('No months of this range have begun yet')).toBeInTheDocument();
    expect(screen.getAllByText('No clients registered in this range')).toHaveLength(2);
    expect(screen.getAllByText('No leads in this range')).toHaveLength(2);
    expect(screen.getByText('No documents uploaded in this range')).toBeInTheDocument();
    expect(screen.getByText('No failed payments in this range')).toBeInTheDocument();
  });

  it('a service that fails shows its message in its own cards; the others still draw', async () => {
    mockFetch({
      ...ROUTES,
      'GET /api/crm/reports/leads': () => apiError(503, 'UNAVAILABLE', 'The service is busy. Please try again shortly.'),
    });
    at();
    expect(await screen.findAllByText('The service is busy. Please try again shortly.')).toHaveLength(2);
    expect(await screen.findByRole('img', { name: /^Subscription fees at each month end/ })).toBeInTheDocument();
  });

  it('a wrong range in the address is explained and not sent', async () => {
    const { calls } = mockFetch(ROUTES);
    at('?from=2025-03-01&to=2025-01-31');
    expect(await screen.findByText('The start date must be on or before the end date.')).toBeInTheDocument();
    at('?from=2019-01-01&to=2025-01-31');
    expect(await screen.findByText('Choose a date range of at most 5 years.')).toBeInTheDocument();
    expect(calls.filter((c) => c.path.includes('/reports/'))).toHaveLength(0);
  });

  it('opens on the last 12 months, from the first of the month eleven months ago to today', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-05T10:00:00Z'), toFake: ['Date'] });
    const { calls } = mockFetch(ROUTES);
    at('');
    await waitFor(() => expect(calls.some((c) => c.path === '/api/crm/reports/leads')).toBe(true));
    vi.useRealTimers();
    expect(screen.getByText('01 Apr 2025 to 05 Mar 2026')).toBeInTheDocument();
  });
});
