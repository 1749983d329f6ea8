import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ClientUpgrade, Communication } from '@countinghouse/proto';
import { json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { AdminClientsPage, AdminCommunicationsPage, AdminTasksPage, AdminUpgradesPage } from './pages';
import { client, findDialog, lastQuery, page, task } from './test/fixtures';

const at = (path: string, element: React.ReactNode) => renderAt(path, { routes: [{ path: path.split('?')[0], element }] });

async function pick(user: ReturnType<typeof userEvent.setup>, combobox: HTMLElement, option: string) {
  await user.click(combobox);
  await user.click((await screen.findAllByTitle(option)).at(-1)!);
}

const acme = client({ company_name: 'Acme Ltd' });

describe('/admin/tasks', { timeout: 60_000 }, () => {
  it('lists tasks, searches and filters by status on the server', async () => {
    const t = task({ title: 'File VAT return', status: 'pending', priority: 'high' });
    const { fetchMock } = mockFetch({ 'GET /api/crm/tasks': () => json(200, page('tasks', [t], 1, 1, 20)) });
    at('/admin/tasks', <AdminTasksPage />);
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Tasks', level: 1 })).toBeInTheDocument();
    const row = (await screen.findByText('File VAT return')).closest('tr')!;
    expect(row).toHaveTextContent('Acme Ltd');
    expect(row).toHaveTextContent('Sam Staff');
    expect(row).toHaveTextContent('07 Apr 2026');
    expect(within(row).getByText('Pending')).toHaveClass('ant-tag-gold');
    expect(within(row).getByText('High')).toHaveClass('ant-tag-orange');

    await user.type(screen.getByRole('searchbox', { name: 'Search tasks' }), 'vat');
    await waitFor(() => expect(lastQuery(fetchMock, '/api/crm/tasks')).toMatchObject({ search: 'vat' }));
    await pick(user, screen.getByRole('combobox', { name: 'Status filter' }), 'In Progress');
    await waitFor(() => expect(lastQuery(fetchMock, '/api/crm/tasks')).toMatchObject({ search: 'vat', status: 'in_progress', page: '1' }));
  });

  it('creates a task: title required; client, assignee, due date, status and priority sent', async () => {
    const { callsTo } = mockFetch({
      'GET /api/crm/tasks': () => json(200, page('tasks', [], 0)),
      'GET /api/crm/clients': () => json(200, page('clients', [acme], 1)),
      'GET /api/crm/team-members': () =>
        json(200, {
          members: [{ user_id: '11111111-1111-4111-8111-111111111111', name: 'Sam Staff', email: 'sam@x.example', roles: ['staff'] }],
        }),
      'POST /api/crm/tasks': () => json(201, task()),
    });
    at('/admin/tasks', <AdminTasksPage />);
    const user = userEvent.setup();
    expect(await screen.findByText('No tasks yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /New task/ }));
    const dialog = await findDialog('New task');
    await user.click(within(dialog).getByRole('button', { name: 'Create task' }));
    expect(await within(dialog).findByText('Please enter a title')).toBeInTheDocument();
    expect(callsTo('POST /api/crm/tasks')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Title'), 'Payroll run');
    await pick(user, within(dialog).getByRole('combobox', { name: 'Client' }), 'Acme Ltd (ada@acme.example)');
    await pick(user, within(dialog).getByLabelText('Assignee'), 'Sam Staff (staff)');
    await pick(user, within(dialog).getByLabelText('Priority'), 'Urgent');
    await user.click(within(dialog).getByLabelText('Due date'));
    await user.type(within(dialog).getByLabelText('Due date'), '30/04/2026{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Create task' }));
    await waitFor(() => expect(callsTo('POST /api/crm/tasks')).toHaveLength(1));
    expect(callsTo('POST /api/crm/tasks')[0]!.body).toEqual({
      title: 'Payroll run',
      description: null,
      client_id: acme.id,
      assignee_id: '11111111-1111-4111-8111-111111111111',
      due_date: '2026-04-30',
      status: 'pending',
      priority: 'urgent',
    });
  });

  it('opens the task named in ?open= (header search)', async () => {
    const t = task({ title: 'Chase bank statements' });
    mockFetch({
      'GET /api/crm/tasks': () => json(200, page('tasks', [], 0)),
      [`GET /api/crm/tasks/${t.id}`]: () => json(200, t),
      'GET /api/crm/clients': () => json(200, page('clients', [], 0)),
      'GET /api/crm/team-members': () => json(200, { members: [] }),
    });
    const { router } = at(`/admin/tasks?open=${t.id}`, <AdminTasksPage />);
    const dialog = await findDialog('Edit task');
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Chase bank statements');
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });
});

describe('/admin/upgrades', { timeout: 60_000 }, () => {
  const upgrade = (over: Partial<ClientUpgrade>): ClientUpgrade => ({
    id: '22222222-2222-4222-8222-222222222222',
    client_id: acme.id,
    client_company_name: 'Acme Ltd',
    from_package: 'Growth',
    to_package: 'Scale',
    from_monthly_fee: 100,
    to_monthly_fee: 150,
    status: 'pending',
    notes: null,
    requested_at: '2026-03-01T09:00:00Z',
    decided_at: null,
    ...over,
  });

  it('shows pending requests first, filters by status and approves', async () => {
    const u = upgrade({});
    const { fetchMock, callsTo } = mockFetch({
      'GET /api/crm/upgrades': () => json(200, page('upgrades', [u], 1, 1, 20)),
      [`PATCH /api/crm/upgrades/${u.id}`]: () => json(200, { ...u, status: 'approved' }),
    });
    at('/admin/upgrades', <AdminUpgradesPage />);
    const user = userEvent.setup();
    const row = (await screen.findByText('Acme Ltd')).closest('tr')!;
    expect(lastQuery(fetchMock, '/api/crm/upgrades')).toMatchObject({ status: 'pending' });
    expect(row).toHaveTextContent('Growth (£100.00/month)');
    expect(row).toHaveTextContent('Scale (£150.00/month)');
    expect(within(row).queryByLabelText(/Complete/)).not.toBeInTheDocument();
    await user.click(within(row).getByLabelText('Approve upgrade for Acme Ltd'));
    await waitFor(() => expect(callsTo(`PATCH /api/crm/upgrades/${u.id}`)).toHaveLength(1));
    expect(callsTo(`PATCH /api/crm/upgrades/${u.id}`)[0]!.body).toEqual({ status: 'approved' });

    await pick(user, screen.getByRole('combobox', { name: 'Status filter' }), 'All Status');
    await waitFor(() => expect(lastQuery(fetchMock, '/api/crm/upgrades')).not.toHaveProperty('status'));
  });

  it('offers Complete and Reject for an approved request, nothing for a final one', async () => {
    const approved = upgrade({ status: 'approved' });
    const done = upgrade({ id: '33333333-3333-4333-8333-333333333333', client_company_name: 'Done Ltd', status: 'completed' });
    const { callsTo } = mockFetch({
      'GET /api/crm/upgrades': () => json(200, page('upgrades', [approved, done], 2, 1, 20)),
      [`PATCH /api/crm/upgrades/${approved.id}`]: () => json(200, { ...approved, status: 'rejected' }),
    });
    at('/admin/upgrades', <AdminUpgradesPage />);
    const user = userEvent.setup();
    const row = (await screen.findByText('Acme Ltd')).closest('tr')!;
    expect(within(row).getByLabelText('Complete upgrade for Acme Ltd')).toBeInTheDocument();
    expect(within(screen.getByText('Done Ltd').closest('tr')!).queryAllByRole('button')).toHaveLength(0);
    await user.click(within(row).getByLabelText('Reject upgrade for Acme Ltd'));
    const popup = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('.ant-popconfirm');
      if (!el) throw new Error('no confirmation yet');
      return el;
    });
    expect(popup).toHaveTextContent('Reject the upgrade for Acme Ltd?');
    await user.click(within(popup).getByText('Reject').closest('button')!);
    await waitFor(() => expect(callsTo(`PATCH /api/crm/upgrades/${approved.id}`)[0]?.body).toEqual({ status: 'rejected' }));
  });
});

describe('/admin/communications', { timeout: 60_000 }, () => {
  const c: Communication = {
    id: '44444444-4444-4444-8444-444444444444',
    client_id: acme.id,
    client_company_name: 'Acme Ltd',
    channel: 'phone',
    direction: 'inbound',
    subject: 'Question about VAT',
    body: null,
    occurred_at: '2026-03-05T14:30:00Z',
    created_at: '2026-03-05T14:31:00Z',
    created_by: null,
  };

  it('lists, filters by channel and logs a communication (client and subject required)', async () => {
    const { fetchMock, callsTo } = mockFetch({
      'GET /api/crm/communications': () => json(200, page('communications', [c], 1, 1, 20)),
      'GET /api/crm/clients': () => json(200, page('clients', [acme], 1)),
      'POST /api/crm/communications': () => json(201, c),
    });
    at('/admin/communications', <AdminCommunicationsPage />);
    const user = userEvent.setup();
    const row = (await screen.findByText('Question about VAT')).closest('tr')!;
    expect(row).toHaveTextContent('05 Mar 2026, 14:30');
    expect(row).toHaveTextContent('Phone');
    expect(row).toHaveTextContent('Inbound');

    await pick(user, screen.getByRole('combobox', { name: 'Channel filter' }), 'Meeting');
    await waitFor(() => expect(lastQuery(fetchMock, '/api/crm/communications')).toMatchObject({ channel: 'meeting' }));

    await user.click(screen.getByRole('button', { name: /Log communication/ }));
    const dialog = await findDialog('Log communication');
    await user.click(within(dialog).getByRole('button', { name: 'Log communication' }));
    expect(await within(dialog).findByText('Please choose a client')).toBeInTheDocument();
    expect(await within(dialog).findByText('Please enter a subject')).toBeInTheDocument();
    await pick(user, within(dialog).getByRole('combobox', { name: 'Client' }), 'Acme Ltd (ada@acme.example)');
    await user.type(within(dialog).getByLabelText('Subject'), 'Sent the engagement letter');
    await user.click(within(dialog).getByRole('button', { name: 'Log communication' }));
    await waitFor(() => expect(callsTo('POST /api/crm/communications')).toHaveLength(1));
    expect(callsTo('POST /api/crm/communications')[0]!.body).toEqual({
      client_id: acme.id,
      channel: 'email',
      direction: 'outbound',
      subject: 'Sent the engagement letter',
      body: null,
    });
  });
});

describe('/admin/clients', { timeout: 60_000 }, () => {
  it('is a table with both filters and opens the client named in ?open=', async () => {
    const { fetchMock } = mockFetch({
      'GET /api/crm/clients': () => json(200, page('clients', [acme], 1, 1, 20)),
      [`GET /api/crm/clients/${acme.id}`]: () => json(200, acme),
      'GET /api/crm/team-members': () => json(200, { members: [] }),
    });
    at(`/admin/clients?open=${acme.id}`, <AdminClientsPage />);
    const dialog = await findDialog('Edit client — Acme Ltd');
    expect(within(dialog).getByLabelText('Company name')).toHaveValue('Acme Ltd');
    expect(screen.getByRole('combobox', { name: 'Status filter' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Package filter' })).toBeInTheDocument();
    expect(lastQuery(fetchMock, '/api/crm/clients')).toMatchObject({ sort: 'created_at' });
  });
});
