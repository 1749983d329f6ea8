import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SearchResult } from '@countinghouse/proto';
import { json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { COUNTS, client, lead, task } from './test/fixtures';

const alice = { id: 'a1', username: 'alice', role: 'admin' } as const;
const SESSION = { 'GET /api/identity/admin/session': () => json(200, { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' }) };

const acme = client({ company_name: 'Acme Ltd' });
const grace = lead({ name: 'Grace Acme', company_name: 'Acme Partners' });
const vat = task({ title: 'Acme VAT return', due_date: '2026-04-07' });
const RESULT: SearchResult = {
  clients: [
    { id: acme.id, company_name: 'Acme Ltd', contact_name: 'Ada', contact_email: 'ada@acme.example', subscription_status: 'active' },
  ],
  leads: [{ id: grace.id, name: 'Grace Acme', email: 'grace@navy.example', company_name: 'Acme Partners', stage: 'qualified' }],
  tasks: [{ id: vat.id, title: 'Acme VAT return', status: 'pending', due_date: '2026-04-07', client_company_name: 'Acme Ltd' }],
};

describe('Admin layout: sidebar badges and header search', { timeout: 60_000 }, () => {
  it('shows the five count badges from the sidebar counts endpoint', async () => {
    const { callsTo } = mockFetch({ ...SESSION, 'GET /api/crm/sidebar-counts': () => json(200, COUNTS) });
    renderAt('/admin/settings');
    const nav = await screen.findByRole('navigation', { name: 'Admin' }, { timeout: 30_000 });
    const badge = (label: string) => within(nav).getByText(label, { selector: 'a' }).closest('li')!.querySelector('.ant-badge');
    await waitFor(() => expect(badge('Clients')).toHaveTextContent('1,234'));
    expect(badge('Leads')).toHaveTextContent('321');
    expect(badge('Tasks')).toHaveTextContent('5');
    expect(badge('Upgrades')).toHaveTextContent('2');
    expect(badge('Communications')).toHaveTextContent('9');
    expect(badge('Staff')).toBeNull();
    expect(callsTo('GET /api/crm/sidebar-counts')).toHaveLength(1);
  });

  it('searches clients, leads and tasks and opens the chosen record', async () => {
    const { fetchMock } = mockFetch({
      ...SESSION,
      'GET /api/crm/search': () => json(200, RESULT),
      'GET /api/crm/tasks': () => json(200, { tasks: [], total: 0, page: 1, page_size: 20 }),
      [`GET /api/crm/tasks/${vat.id}`]: () => json(200, vat),
      'GET /api/crm/clients': () => json(200, { clients: [], total: 0, page: 1, page_size: 20 }),
      'GET /api/crm/team-members': () => json(200, { members: [] }),
    });
    const { router } = renderAt('/admin/settings');
    const user = userEvent.setup();
    const box = await screen.findByPlaceholderText('Search clients, leads, tasks...', {}, { timeout: 30_000 });
    await user.type(box, 'acme');
    expect(await screen.findByText('Acme VAT return')).toBeInTheDocument();
    const popup = document.querySelector<HTMLElement>('.ant-select-dropdown')!;
    for (const group of ['Clients', 'Leads', 'Tasks']) expect(within(popup).getByText(group)).toBeInTheDocument();
    expect(within(popup).getByText('Grace Acme')).toBeInTheDocument();
    const searches = fetchMock.mock.calls.map(([r]) => new URL((r as Request).url)).filter((u) => u.pathname === '/api/crm/search');
    expect(searches.at(-1)!.searchParams.get('q')).toBe('acme');
    expect(searches.length).toBe(1); // debounced: one request for four keys

    await user.click(within(popup).getByText('Acme VAT return'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/tasks'));
    await waitFor(() => expect(document.querySelector('.ant-modal-title')).toHaveTextContent('Edit task'));
  });
});
