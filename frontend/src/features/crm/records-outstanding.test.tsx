import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ClientRequest } from '@countinghouse/proto';
import { json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { AdminClientsPage } from './pages';
import { client, page } from './test/fixtures';

const acme = client({ company_name: 'Acme Ltd' });
const bolt = client({ company_name: 'Bolt Bakery Ltd', contact_email: 'bo@bolt.example' });
const quiet = client({ company_name: 'Quiet Co Ltd', contact_email: 'q@quiet.example' });

const request = (c: { id: string; company_name: string }, title: string): ClientRequest => ({
  id: `r-${c.id}-${title}`,
  client_id: c.id,
  client_name: c.company_name,
  title,
  due_on: '2026-12-10',
  status: 'open',
  deadline_id: null,
  assignee_id: null,
  sent_on: '2026-11-20',
  waiting_days: 6,
  open_items: 1,
  awaiting_review: 0,
  items: [],
  reminders: [],
  activity: [],
  completed_at: null,
  created_at: '2026-11-20T10:00:00Z',
});

async function pick(user: ReturnType<typeof userEvent.setup>, combobox: HTMLElement, option: string) {
  await user.click(combobox);
  await user.click((await screen.findAllByTitle(option)).at(-1)!);
}

describe('/admin/clients: Records outstanding (issue #28)', { timeout: 60_000 }, () => {
  it('shows only the clients with an open request, by name, and the search narrows them', async () => {
    const { callsTo } = mockFetch({
      'GET /api/crm/clients': () => json(200, page('clients', [acme, bolt, quiet], 3, 1, 20)),
      'GET /api/crm/team-members': () => json(200, { members: [] }),
      // Two requests for Bolt, one for Acme: each client once.
      'GET /api/requests': () =>
        json(200, {
          requests: [request(bolt, 'VAT quarter records'), request(acme, 'Year-end records'), request(bolt, 'Identity documents')],
        }),
      [`GET /api/crm/clients/${acme.id}`]: () => json(200, acme),
      [`GET /api/crm/clients/${bolt.id}`]: () => json(200, bolt),
    });
    renderAt('/admin/clients', { routes: [{ path: '/admin/clients', element: <AdminClientsPage /> }] });
    const user = userEvent.setup();
    expect(await screen.findByText('Quiet Co Ltd')).toBeInTheDocument();
    // Off, the filter asks nothing of the requests service.
    expect(callsTo('GET /api/requests')).toHaveLength(0);
    const listCalls = callsTo('GET /api/crm/clients').length;

    await pick(user, screen.getByRole('combobox', { name: 'Records filter' }), 'Records outstanding');
    expect(await screen.findByText('Bolt Bakery Ltd')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Quiet Co Ltd')).not.toBeInTheDocument());
    expect(screen.getByText('Acme Ltd')).toBeInTheDocument();
    const names = [...document.querySelectorAll('tbody tr')].map((tr) => tr.textContent ?? '');
    expect(names.findIndex((t) => t.includes('Acme Ltd'))).toBeLessThan(names.findIndex((t) => t.includes('Bolt Bakery Ltd')));
    expect(callsTo('GET /api/requests')[0]!.path).toBe('/api/requests');
    expect(callsTo(`GET /api/crm/clients/${bolt.id}`)).toHaveLength(1);
    expect(callsTo(`GET /api/crm/clients/${quiet.id}`)).toHaveLength(0);
    expect(callsTo('GET /api/crm/clients')).toHaveLength(listCalls);
    // The status and package filters wait while it is on.
    expect(screen.queryByRole('combobox', { name: 'Status filter' })).not.toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search clients' }), 'bolt');
    await waitFor(() => expect(screen.queryByText('Acme Ltd')).not.toBeInTheDocument());
    expect(screen.getByText('Bolt Bakery Ltd')).toBeInTheDocument();

    await user.clear(screen.getByRole('searchbox', { name: 'Search clients' }));
    await pick(user, screen.getByRole('combobox', { name: 'Records filter' }), 'All records');
    expect(await screen.findByText('Quiet Co Ltd')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Status filter' })).toBeInTheDocument();
  });

  it('says so when no client has records outstanding', async () => {
    mockFetch({
      'GET /api/crm/clients': () => json(200, page('clients', [acme], 1, 1, 20)),
      'GET /api/crm/team-members': () => json(200, { members: [] }),
      'GET /api/requests': () => json(200, { requests: [] }),
    });
    renderAt('/admin/clients', { routes: [{ path: '/admin/clients', element: <AdminClientsPage /> }] });
    const user = userEvent.setup();
    expect(await screen.findByText('Acme Ltd')).toBeInTheDocument();
    await pick(user, screen.getByRole('combobox', { name: 'Records filter' }), 'Records outstanding');
    expect(await screen.findByText('No clients match these filters')).toBeInTheDocument();
  });
});
