import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@countinghouse/proto';
import { apiError, json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { StaffClientDatabase, StaffLeads, StaffStats } from './index';
import { REVENUE, REVENUE_ROUTE, STATS, client, findDialog, lastQuery, lead, page } from './test/fixtures';

const render = (element: React.ReactNode) => renderAt('/', { routes: [{ path: '/', element }] });

const newer = client({ company_name: 'Newer Ltd', registration_date: '2026-03-05T10:00:00Z', contact_name: 'Nia New' });
const older = client({
  company_name: 'Older & Co',
  contact_email: 'old@older.example',
  registration_date: '2024-01-02T10:00:00Z',
  subscription_status: 'overdue',
  package_name: null,
  monthly_fee: 50,
});

describe('Staff portal: Client Database', { timeout: 60_000 }, () => {
  it('has the spec columns, asks for newest first by registration date, and renders each row', async () => {
    const { fetchMock } = mockFetch({ 'GET /api/crm/clients': () => json(200, page('clients', [newer, older], 2, 1, 20)) });
    render(<StaffClientDatabase />);
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Company', 'Contact', 'Package', 'Monthly Fee', 'Status', 'Registered', 'Actions']);
    expect(lastQuery(fetchMock, '/api/crm/clients')).toMatchObject({ sort: 'registration_date', page: '1', page_size: '20' });
    // The table renders an empty row while loading: wait for the data before reading rows.
    await within(table).findByText('Newer Ltd');
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Newer Ltd');
    expect(rows[1]).toHaveTextContent('Nia New');
    expect(rows[1]).toHaveTextContent('£100.00');
    expect(within(rows[1]!).getByText('Active')).toHaveClass('ant-tag-green');
    expect(rows[1]).toHaveTextContent('05 Mar 2026');
    expect(rows[2]).toHaveTextContent('overdue');
    expect(rows[2]).toHaveTextContent('£50.00');
    expect(rows[2]).toHaveTextContent('02 Jan 2024');
  });

  it("Actions opens 'Client Documents' with the company name and the access note", async () => {
    mockFetch({ 'GET /api/crm/clients': () => json(200, page('clients', [older], 1, 1, 20)) });
    render(<StaffClientDatabase />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Documents for Older & Co' }));
    const dialog = await findDialog('Client Documents');
    expect(dialog).toHaveTextContent('Older & Co');
    expect(dialog).toHaveTextContent('Only the client and their assigned accountant can access these files.');
    expect(within(dialog).getByRole('combobox', { name: 'Document type for upload' })).toBeInTheDocument();
  });

  it("says 'Failed to load client data' when the list fails", async () => {
    mockFetch({ 'GET /api/crm/clients': () => apiError(500, 'INTERNAL', 'boom') });
    render(<StaffClientDatabase />);
    expect(await screen.findByText(MESSAGES.failedToLoadClientData)).toBeInTheDocument();
  });
});

describe('Staff portal: stats and leads', { timeout: 60_000 }, () => {
  it('shows Total Clients, Active Clients and Monthly Revenue', async () => {
    mockFetch({ 'GET /api/crm/stats': () => json(200, STATS), [REVENUE_ROUTE]: () => json(200, REVENUE) });
    render(<StaffStats />);
    const card = (t: string) => screen.getByRole('heading', { name: t }).closest('.ant-card');
    await waitFor(() => expect(card('Total Clients')).toHaveTextContent('1,234'));
    expect(card('Active Clients')).toHaveTextContent('987');
    await waitFor(() => expect(card('Monthly Revenue')).toHaveTextContent('£9,876.25'));
    expect(screen.queryByRole('heading', { name: 'New Leads' })).not.toBeInTheDocument();
  });

  it('lists leads, filters by stage on the server and changes a stage', async () => {
    const ann = lead({ name: 'Ann Lead', stage: 'qualified' });
    const { fetchMock, callsTo } = mockFetch({
      'GET /api/crm/leads': () => json(200, page('leads', [ann], 1, 1, 20)),
      'GET /api/crm/ghl/config': () => json(200, { configured: true, message: null, last_import_at: null, last_import_total: null }),
      [`PATCH /api/crm/leads/${ann.id}`]: () => json(200, { ...ann, stage: 'proposal_sent' }),
    });
    render(<StaffLeads />);
    const user = userEvent.setup();
    const row = (await screen.findByText('Ann Lead')).closest('tr')!;
    expect(within(row).getByText('Qualified', { selector: '.ant-tag' })).toHaveClass('ant-tag-cyan');

    await user.click(screen.getByRole('combobox', { name: 'Stage filter' }));
    await user.click((await screen.findAllByTitle('Won')).at(-1)!);
    await waitFor(() => expect(lastQuery(fetchMock, '/api/crm/leads')).toMatchObject({ stage: 'won', page: '1' }));

    await user.click(within(row).getByRole('combobox', { name: 'Stage of Ann Lead' }));
    await user.click((await screen.findAllByTitle('Proposal Sent')).at(-1)!);
    await waitFor(() => expect(callsTo(`PATCH /api/crm/leads/${ann.id}`)).toHaveLength(1));
    expect(callsTo(`PATCH /api/crm/leads/${ann.id}`)[0]!.body).toEqual({ stage: 'proposal_sent' });
  });

  it("says 'Failed to fetch leads' when the list fails", async () => {
    mockFetch({ 'GET /api/crm/leads': () => apiError(500, 'INTERNAL', 'boom') });
    render(<StaffLeads />);
    expect(await screen.findByText(MESSAGES.failedToFetchLeads)).toBeInTheDocument();
  });
});
