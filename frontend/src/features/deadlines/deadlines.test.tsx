import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Deadline, DeadlineList } from '@countinghouse/proto';
import { json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { DeadlinesPage } from './DeadlinesPage';

const LIST = 'GET /api/deadlines';
const routes = [{ path: '/admin/deadlines', element: <DeadlinesPage /> }];

const base: Omit<Deadline, 'id' | 'kind' | 'due_on' | 'status' | 'period'> = {
  client_id: 'c1',
  client_name: 'Acme Widgets Ltd',
  assigned_accountant_id: null,
  period_end: '2026-03-31',
  source: 'companies_house',
  done_at: null,
  done_by_name: null,
};
const accounts: Deadline = {
  ...base,
  id: 'd1',
  kind: 'accounts',
  period: 'Year ended 31 Mar 2026',
  due_on: '2026-12-31',
  status: 'upcoming',
};
const confirmation: Deadline = {
  ...base,
  id: 'd2',
  kind: 'confirmation_statement',
  period: 'Review period to 31 Jul 2026',
  due_on: '2026-08-14',
  status: 'overdue',
};
const list = (deadlines: Deadline[]): DeadlineList => ({
  deadlines,
  total: deadlines.length,
  total_capped: false,
  page: 1,
  page_size: 50,
  today: '2026-11-23',
});
const common = {
  'GET /api/crm/team-members': () => json(200, { members: [] }),
  'GET /api/crm/clients': () => json(200, { clients: [], total: 0, page: 1, page_size: 20 }),
  'GET /api/deadlines/calendar': () => json(200, { url: null, has_feed: false, created_at: null }),
};

describe('Deadlines page', () => {
  it('lists deadlines with en-GB dates, the overdue one in red', async () => {
    mockFetch({ ...common, [LIST]: () => json(200, list([confirmation, accounts])) });
    renderAt('/admin/deadlines', { routes });
    expect(await screen.findByRole('heading', { level: 1, name: 'Deadlines' })).toBeInTheDocument();
    const overdueRow = (await screen.findByText('14 Aug 2026')).closest('tr')!;
    expect(overdueRow).toHaveClass('deadlines__row--overdue');
    expect(within(overdueRow).getByText('Overdue')).toBeInTheDocument();
    const row = screen.getByText('31 Dec 2026').closest('tr')!;
    expect(within(row).getByText('Annual accounts (Companies House)')).toBeInTheDocument();
    expect(row).not.toHaveClass('deadlines__row--overdue');
    expect(screen.getByText('2 deadlines')).toBeInTheDocument();
  });

  it('marks a deadline done only after confirming, then asks for the list again', async () => {
    const fetch = mockFetch({
      ...common,
      [LIST]: [() => json(200, list([accounts])), () => json(200, list([]))],
      'POST /api/deadlines/d1/done': () =>
        json(200, {
          deadline: { ...accounts, status: 'done', done_at: '2026-11-23T10:00:00Z', done_by_name: 'Admin' },
          message: 'Deadline marked as done',
        }),
    });
    renderAt('/admin/deadlines', { routes });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Mark done: Annual accounts (Companies House), Acme Widgets Ltd, due 31 Dec 2026' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByText('Mark this deadline as done?').length).toBeGreaterThan(0);
    expect(fetch.callsTo('POST /api/deadlines/d1/done')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Mark done' }));
    expect(await screen.findByText('Deadline marked as done')).toBeInTheDocument();
    await waitFor(() => expect(fetch.callsTo('POST /api/deadlines/d1/done')).toHaveLength(1));
    expect(await screen.findByText('No deadlines in this window')).toBeInTheDocument();
  });
});
