import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CONTACT_MESSAGES, GHL_MESSAGES, MESSAGES } from '@countinghouse/proto';
import { apiError, json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { ClientManagement } from './ClientManagement';
import { REVENUE, REVENUE_ROUTE, STATS, UploadXhr, client, findDialog, lastQuery, lead, page, queriesTo } from './test/fixtures';

const CLIENTS = 'GET /api/crm/clients';
const LEADS = 'GET /api/crm/leads';
const STATS_ROUTE = 'GET /api/crm/stats';
const GHL_CONFIG = 'GET /api/crm/ghl/config';

const acme = client({ company_name: 'Acme Ltd', contact_email: 'ada@acme.example', contact_phone: '020 7946 0001' });
const bolt = client({
  company_name: 'Bolt & Sons',
  contact_email: 'bo@bolt.example',
  contact_phone: null,
  subscription_status: 'pending',
  package_name: 'Enterprise',
  monthly_fee: 300,
  employees_count: 3,
  registration_date: '2025-09-01T12:00:00Z',
});
const grace = lead({ name: 'Grace Hopper', stage: 'new_enquiry' });
const wonLead = lead({ name: 'Wendy Won', email: 'wendy@won.example', company_name: null, stage: 'won', quote_amount: null, source: null });

function setup(overrides: Parameters<typeof mockFetch>[0] = {}) {
  const mock = mockFetch({
    [STATS_ROUTE]: () => json(200, STATS),
    [REVENUE_ROUTE]: () => json(200, REVENUE),
    [CLIENTS]: () => json(200, page('clients', [acme, bolt], 40)),
    [LEADS]: () => json(200, page('leads', [grace, wonLead], 321)),
    [GHL_CONFIG]: () => json(200, { configured: true, message: null, last_import_at: null, last_import_total: null }),
    'GET /api/crm/team-members': () => json(200, { members: [] }),
    ...overrides,
  });
  const view = renderAt('/', { routes: [{ path: '/', element: <ClientManagement /> }] });
  return { ...mock, ...view, user: userEvent.setup() };
}

const card = (name: string) => screen.getByRole('article', { name });
const statCard = (title: string) => screen.getByRole('heading', { name: title }).closest('.ant-card') as HTMLElement;

async function pick(user: ReturnType<typeof userEvent.setup>, combobox: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: combobox }));
  const options = await screen.findAllByTitle(option);
  await user.click(options[options.length - 1]!);
}

describe('Client Management', { timeout: 60_000 }, () => {
  it('shows the title, the four cards from the stats endpoint, tab counts and every client card field', async () => {
    setup();
    expect(screen.getByRole('heading', { name: 'Client Management' })).toBeInTheDocument();
    await waitFor(() => expect(statCard('Total Clients')).toHaveTextContent('1,234'));
    expect(statCard('Active Clients')).toHaveTextContent('987');
    expect(statCard('New Leads')).toHaveTextContent('42');
    await waitFor(() => expect(statCard('Monthly Revenue')).toHaveTextContent('£9,876.25'));

    expect(await screen.findByRole('tab', { name: 'Clients (40)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Leads (321)' })).toBeInTheDocument();

    const a = await screen.findByRole('article', { name: 'Acme Ltd' });
    expect(a).toHaveTextContent('ada@acme.example');
    expect(a).toHaveTextContent('020 7946 0001');
    expect(within(a).getByText('Active')).toHaveClass('ant-tag-green');
    expect(a).toHaveTextContent('Growth');
    expect(a).toHaveTextContent('£100.00/month');
    expect(a).toHaveTextContent('Employees12');
    expect(a).toHaveTextContent('Joined05 Mar 2026');

    const b = card('Bolt & Sons');
    expect(within(b).queryByText('Active')).not.toBeInTheDocument();
    expect(within(b).getByText('pending')).not.toHaveClass('ant-tag');
    expect(b).not.toHaveTextContent('020');
    expect(b).toHaveTextContent('£300.00/month');
    expect(b).toHaveTextContent('01 Sep 2025');
  });

  it('offers exactly the spec filter options, and each filter goes to the server', async () => {
    const { fetchMock, user } = setup();
    await screen.findByRole('article', { name: 'Acme Ltd' });
    expect(lastQuery(fetchMock, '/api/crm/clients')).toEqual({ sort: 'created_at', page: '1', page_size: '12' });

    await user.click(screen.getByRole('combobox', { name: 'Status filter' }));
    const statusList = await screen.findByRole('listbox');
    expect(
      within(statusList.parentElement!)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All Status', 'Active', 'Pending', 'Cancelled']);
    await user.click(screen.getAllByTitle('Pending').at(-1)!);
    await waitFor(() => expect(lastQuery(fetchMock, '/api/crm/clients')).toMatchObject({ status: 'pending', page: '1' }));

    await user.click(screen.getByRole('combobox', { name: 'Package filter' }));
    const lists = await screen.findAllByRole('listbox');
    expect(
      within(lists.at(-1)!.parentElement!)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All Packages', 'Starter', 'Growth', 'Scale', 'Professional', 'Enterprise']);
    await user.click(screen.getAllByTitle('Starter').at(-1)!);
    await waitFor(() => expect(lastQuery(fetchMock, '/api/crm/clients')).toMatchObject({ status: 'pending', package: 'Starter' }));

    await pick(user, 'Status filter', 'All Status');
    await waitFor(() =>
      expect(lastQuery(fetchMock, '/api/crm/clients')).toEqual({ package: 'Starter', sort: 'created_at', page: '1', page_size: '12' }),
    );
  });

  it('searches clients and leads on the server, once per pause in typing', async () => {
    const { fetchMock, user } = setup();
    await screen.findByRole('article', { name: 'Acme Ltd' });
    const before = queriesTo(fetchMock, 'GET', '/api/crm/clients').length;
    const box = screen.getByPlaceholderText('Search clients, companies, or emails...');
    await user.type(box, 'ACME');
    await waitFor(() => expect(lastQuery(fetchMock, '/api/crm/clients')).toMatchObject({ search: 'ACME' }));
    await waitFor(() => expect(lastQuery(fetchMock, '/api/crm/leads')).toMatchObject({ search: 'ACME' }));
    // Debounced: not one request per key.
    expect(queriesTo(fetchMock, 'GET', '/api/crm/clients').length - before).toBe(1);
  });

  it('shows the lead cards with stage badge, business type, quote, created date and source', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('tab', { name: /Leads/ }));
    const g = await screen.findByRole('article', { name: 'Grace Hopper' });
    expect(g).toHaveTextContent('grace@navy.example');
    expect(g).toHaveTextContent('Hopper Partners');
    expect(within(g).getByText('New Enquiry', { selector: '.ant-tag' })).toHaveClass('ant-tag-blue');
    expect(within(g).getByText('Partnership')).toBeInTheDocument();
    expect(g).toHaveTextContent('£150.00');
    expect(g).toHaveTextContent('14 Feb 2026');
    expect(g).toHaveTextContent('Referral');

    const w = card('Wendy Won');
    expect(within(w).getByText('Won', { selector: '.ant-tag' })).toHaveClass('ant-tag-green');
    expect(w).not.toHaveTextContent('Quote');
    expect(w).not.toHaveTextContent('Source');
  });

  it('moves a lead to another stage with a PATCH', async () => {
    const { user, callsTo } = setup({
      [`PATCH /api/crm/leads/${grace.id}`]: () => json(200, { ...grace, stage: 'qualified' }),
    });
    await user.click(await screen.findByRole('tab', { name: /Leads/ }));
    await screen.findByRole('article', { name: 'Grace Hopper' });
    await pick(user, 'Stage of Grace Hopper', 'Qualified');
    await waitFor(() => expect(callsTo(`PATCH /api/crm/leads/${grace.id}`)).toHaveLength(1));
    expect(callsTo(`PATCH /api/crm/leads/${grace.id}`)[0]!.body).toEqual({ stage: 'qualified' });
  });

  it('converts a won lead into a client', async () => {
    const { user, callsTo } = setup({
      [`POST /api/crm/leads/${wonLead.id}/convert`]: () =>
        json(200, { lead: { ...wonLead, converted_client_id: acme.id }, client: client({ company_name: 'Wendy Won' }) }),
    });
    await user.click(await screen.findByRole('tab', { name: /Leads/ }));
    const w = await screen.findByRole('article', { name: 'Wendy Won' });
    expect(within(card('Grace Hopper')).queryByRole('button', { name: /Convert/ })).not.toBeInTheDocument();
    await user.click(within(w).getByRole('button', { name: /Convert to client/ }));
    const dialog = await findDialog('Convert Wendy Won into a client');
    expect(within(dialog).getByLabelText('Company name')).toHaveValue('Wendy Won');
    await user.click(within(dialog).getByRole('button', { name: 'Convert to client' }));
    await waitFor(() => expect(callsTo(`POST /api/crm/leads/${wonLead.id}/convert`)).toHaveLength(1));
    expect(callsTo(`POST /api/crm/leads/${wonLead.id}/convert`)[0]!.body).toEqual({
      company_name: 'Wendy Won',
      package_name: null,
      business_type: 'partnership',
      subscription_status: 'pending',
    });
  });

  it('says "Failed to load client data" and "Failed to fetch leads" when the lists fail', async () => {
    setup({
      [CLIENTS]: () => apiError(500, 'INTERNAL', 'boom'),
      [LEADS]: () => apiError(500, 'INTERNAL', 'boom'),
    });
    expect(await screen.findByText(MESSAGES.failedToLoadClientData)).toBeInTheDocument();
    expect(await screen.findByText(MESSAGES.failedToFetchLeads)).toBeInTheDocument();
    expect(screen.getByText('Could not load this list')).toBeInTheDocument();
  });

  it('pages through a large list on the server', async () => {
    const { fetchMock, user } = setup();
    await screen.findByRole('article', { name: 'Acme Ltd' });
    await user.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastQuery(fetchMock, '/api/crm/clients')).toMatchObject({ page: '2', page_size: '12' }));
  });

  it('shows an empty state', async () => {
    setup({ [CLIENTS]: () => json(200, page('clients', [], 0)) });
    expect(await screen.findByText('No clients yet')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Clients (0)' })).toBeInTheDocument();
  });
});

describe('Add Client and Add Lead', { timeout: 60_000 }, () => {
  it('Add Client requires company, contact and e-mail, then posts the form', async () => {
    const { user, callsTo } = setup({ 'POST /api/crm/clients': () => json(201, client({ company_name: 'New Co' })) });
    await user.click(screen.getByRole('button', { name: /Add Client/ }));
    const dialog = await findDialog('Add Client');
    await user.click(within(dialog).getByRole('button', { name: 'Add Client' }));
    expect(await within(dialog).findByText('Please enter the company name')).toBeInTheDocument();
    expect(await within(dialog).findByText('Please enter the contact name')).toBeInTheDocument();
    expect(within(dialog).getByText('Please enter the contact e-mail')).toBeInTheDocument();
    expect(callsTo('POST /api/crm/clients')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Company name'), 'New Co');
    await user.type(within(dialog).getByLabelText('Contact name'), 'Nina New');
    await user.type(within(dialog).getByLabelText('Contact e-mail'), 'not-an-email');
    await user.click(within(dialog).getByRole('button', { name: 'Add Client' }));
    expect(await within(dialog).findByText(CONTACT_MESSAGES.emailInvalid)).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Contact e-mail'));
    await user.type(within(dialog).getByLabelText('Contact e-mail'), 'nina@new.example');

    await user.click(within(dialog).getByRole('combobox', { name: 'Package' }));
    // The package select shows each package's monthly fee.
    await user.click(await screen.findByTitle('Scale — £150.00/month'));
    expect(within(dialog).getByText('Monthly fee £150.00/month')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add Client' }));

    await waitFor(() => expect(callsTo('POST /api/crm/clients')).toHaveLength(1));
    expect(callsTo('POST /api/crm/clients')[0]!.body).toMatchObject({
      company_name: 'New Co',
      contact_name: 'Nina New',
      contact_email: 'nina@new.example',
      package_name: 'Scale',
      business_type: 'limited',
      subscription_status: 'pending',
      employees_count: 0,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("Add Lead requires name and e-mail and shows the server's refusal", async () => {
    const { user, callsTo } = setup({
      'POST /api/crm/leads': () => apiError(409, 'CONFLICT', 'A lead with this e-mail already exists'),
    });
    await user.click(screen.getByRole('button', { name: /Add Lead/ }));
    const dialog = await findDialog('Add Lead');
    await user.click(within(dialog).getByRole('button', { name: 'Add Lead' }));
    expect(await within(dialog).findByText('Please enter the name')).toBeInTheDocument();
    expect(await within(dialog).findByText('Please enter the e-mail')).toBeInTheDocument();
    expect(callsTo('POST /api/crm/leads')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Name'), 'Lin Lead');
    await user.type(within(dialog).getByLabelText('E-mail'), 'lin@lead.example');
    await user.click(within(dialog).getByRole('button', { name: 'Add Lead' }));
    await waitFor(() => expect(callsTo('POST /api/crm/leads')).toHaveLength(1));
    expect(callsTo('POST /api/crm/leads')[0]!.body).toMatchObject({ name: 'Lin Lead', email: 'lin@lead.example', stage: 'new_enquiry' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('A lead with this e-mail already exists');
  });

  it('Edit opens the client form filled in and PATCHes the client', async () => {
    const { user, callsTo } = setup({ [`PATCH /api/crm/clients/${acme.id}`]: () => json(200, acme) });
    const a = await screen.findByRole('article', { name: 'Acme Ltd' });
    await user.click(within(a).getByRole('button', { name: 'Edit Acme Ltd' }));
    const dialog = await findDialog('Edit client — Acme Ltd');
    expect(within(dialog).getByLabelText('Contact e-mail')).toHaveValue('ada@acme.example');
    await user.clear(within(dialog).getByLabelText('Contact phone'));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(callsTo(`PATCH /api/crm/clients/${acme.id}`)).toHaveLength(1));
    expect(callsTo(`PATCH /api/crm/clients/${acme.id}`)[0]!.body).toMatchObject({ company_name: 'Acme Ltd', contact_phone: null });
  });

  it('Docs opens "Client Documents — {company}" with the uploader; a finished upload says "Files uploaded" and closes it', async () => {
    vi.stubGlobal('XMLHttpRequest', UploadXhr);
    UploadXhr.sent = [];
    const { user } = setup();
    const a = await screen.findByRole('article', { name: 'Acme Ltd' });
    await user.click(within(a).getByRole('button', { name: /Docs/ }));
    const dialog = await findDialog('Client Documents — Acme Ltd');
    expect(dialog).toHaveTextContent('Only the client and their assigned accountant can access these files.');

    await user.click(within(dialog).getByRole('combobox', { name: 'Document type for upload' }));
    await user.click(await screen.findByTitle('VAT Returns'));
    await user.upload(within(dialog).getByTestId('documents-file-input'), new File(['%PDF-1.4'], 'vat.pdf', { type: 'application/pdf' }));
    await user.click(within(dialog).getByRole('button', { name: /Upload 1 file/ }));

    expect(await screen.findByText('Files uploaded')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(UploadXhr.sent).toHaveLength(1);
    expect(UploadXhr.sent[0]!.get('client_id')).toBe(acme.id);
  });
});

describe('GoHighLevel import', { timeout: 60_000 }, () => {
  it('is disabled and says why when the server has no GoHighLevel key', async () => {
    setup({
      [GHL_CONFIG]: () =>
        json(200, { configured: false, message: GHL_MESSAGES.notConfigured, last_import_at: null, last_import_total: null }),
    });
    expect(await screen.findByText('External CRM not configured on this server')).toBeInTheDocument();
    const button = screen.getByRole('button', { name: /Import from GoHighLevel/ });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('External CRM not configured on this server');
  });

  it('imports and says "Loaded {total} leads from a CRM"', async () => {
    const { user, callsTo } = setup({
      'POST /api/crm/ghl/import': () => json(200, { success: true, leads: [], total: 3, created: 2, updated: 1 }),
    });
    const button = await screen.findByRole('button', { name: /Import from GoHighLevel/ });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    expect(await screen.findByText('Loaded 3 leads from a CRM')).toBeInTheDocument();
    expect(callsTo('POST /api/crm/ghl/import')).toHaveLength(1);
  });

  it('says "Failed to fetch leads from GoHighLevel" when the import fails', async () => {
    const { user } = setup({ 'POST /api/crm/ghl/import': () => apiError(503, 'UPSTREAM_UNAVAILABLE', 'GoHighLevel did not answer') });
    const button = await screen.findByRole('button', { name: /Import from GoHighLevel/ });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    expect(await screen.findByText(MESSAGES.failedToFetchLeadsFromGhl)).toBeInTheDocument();
  });
});
