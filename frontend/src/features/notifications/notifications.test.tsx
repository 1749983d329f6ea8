import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS, type Notification, type NotificationList, type NotificationPreferences } from '@countinghouse/proto';
import { json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { NOTIFICATIONS_POLL_MS } from './labels';

const alice = { id: 'a1', username: 'alice', role: 'admin' } as const;
const SESSION = { 'GET /api/identity/admin/session': () => json(200, { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' }) };
const LIST = 'GET /api/notifications';
const UNREAD = 'GET /api/notifications/unread-count';
const READ_ALL = 'POST /api/notifications/read-all';
const PREFS_GET = 'GET /api/notifications/preferences';
const PREFS_PUT = 'PUT /api/notifications/preferences';

let seq = 0;
function note(over: Partial<Notification> = {}): Notification {
  seq++;
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    kind: 'document_uploaded',
    title: 'Document uploaded',
    body: `file-${seq}.pdf (VAT Returns) was uploaded for Acme Bakery Ltd.`,
    link: '/admin/documents',
    created_at: '2026-03-05T14:30:00Z',
    source_event_id: `10000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    is_read: false,
    ...over,
  };
}
const page = (notifications: Notification[], total = notifications.length): NotificationList => ({
  notifications,
  total,
  total_exact: true,
  page: 1,
  page_size: 20,
});
const ALL_ON: NotificationPreferences = {
  kinds: {
    new_client: true,
    payment_failed: true,
    document_uploaded: true,
    invitation_accepted: true,
    integration_sync_failed: true,
    job_failed: true,
    deadline_overdue: true,
    aml_review_due: true,
    engagement_signed: true,
  },
};
const queryOf = (fetchMock: ReturnType<typeof mockFetch>['fetchMock'], path: string) =>
  fetchMock.mock.calls.map(([r]) => new URL((r as Request).url)).filter((u) => u.pathname === path);

describe('the bell', { timeout: 60_000 }, () => {
  it('polls every 30 seconds, like the sidebar counts', () => {
    expect(NOTIFICATIONS_POLL_MS).toBe(30_000);
  });

  it('opens the latest few, marks all read (the badge goes) and leads to the page', async () => {
    const latest = [
      note({
        title: 'Failed payment',
        body: 'A payment of £1,249.50 from ada@acme.co.uk failed.',
        kind: 'payment_failed',
        link: '/admin/billing',
      }),
      note({ is_read: true, body: 'old.pdf was uploaded for Acme.' }),
    ];
    let unread = 2;
    const { callsTo, fetchMock } = mockFetch({
      ...SESSION,
      [UNREAD]: () => json(200, { count: unread, capped: false }),
      [LIST]: () => json(200, page(unread ? latest : latest.map((n) => ({ ...n, is_read: true })))),
      [READ_ALL]: () => {
        unread = 0;
        return json(200, { success: true, unread: { count: 0, capped: false } });
      },
      [PREFS_GET]: () => json(200, ALL_ON),
    });
    const { router } = renderAt('/admin/settings');
    const user = userEvent.setup();
    const bell = await screen.findByRole('button', { name: 'Notifications (2 unread)' }, { timeout: 30_000 });
    expect(callsTo(LIST)).toHaveLength(0); // the list is fetched only when the bell opens

    await user.click(bell);
    const panel = await screen.findByRole('dialog', { name: 'Latest notifications' });
    expect(await within(panel).findByText('A payment of £1,249.50 from ada@acme.co.uk failed.')).toBeInTheDocument();
    expect(within(panel).getByText('old.pdf was uploaded for Acme.')).toBeInTheDocument();
    expect(within(panel).getAllByText('05 Mar 2026, 14:30')).toHaveLength(2);
    const listQuery = queryOf(fetchMock, '/api/notifications').at(-1)!.searchParams;
    expect(listQuery.get('page_size')).toBe('5');

    await user.click(within(panel).getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(callsTo(READ_ALL)).toHaveLength(1));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.getByRole('banner').querySelector('.ant-badge-count:not([data-show="false"])')).toBeNull();

    await user.click(within(panel).getByRole('link', { name: 'View all notifications' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/notifications'));
  });

  it('opening one marks it read and goes to its page', async () => {
    const one = note({ title: 'New client', body: 'Cedar Dental joined as a client.', kind: 'new_client', link: '/admin/clients?open=c1' });
    const { callsTo } = mockFetch({
      ...SESSION,
      [UNREAD]: () => json(200, { count: 1, capped: false }),
      [LIST]: () => json(200, page([one])),
      [`POST /api/notifications/${one.id}/read`]: () => json(200, { success: true, unread: { count: 0, capped: false } }),
      'GET /api/crm/clients': () => json(200, { clients: [], total: 0, page: 1, page_size: 20 }),
      'GET /api/crm/clients/c1': () => json(404, { error: { code: 'NOT_FOUND', message: 'Client not found' } }),
    });
    const { router } = renderAt('/admin/settings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Notifications (1 unread)' }, { timeout: 30_000 }));
    await user.click(await screen.findByRole('button', { name: /Cedar Dental joined as a client/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/clients'));
    expect(callsTo(`POST /api/notifications/${one.id}/read`)).toHaveLength(1);
  });
});

describe('/admin/notifications', { timeout: 60_000 }, () => {
  it('shows a loading state, then the unread ones with en-GB dates; All and the kind filter ask the server', async () => {
    const unreadOnes = [
      note({
        title: 'Integration sync failed',
        body: 'The Xero sync for Acme failed.',
        kind: 'integration_sync_failed',
        created_at: '2026-09-01T08:05:00Z',
      }),
    ];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const { fetchMock } = mockFetch({
      ...SESSION,
      [UNREAD]: () => json(200, { count: 1, capped: false }),
      [LIST]: async (call) => {
        void call;
        await gate;
        return json(200, page(unreadOnes));
      },
      [PREFS_GET]: () => json(200, ALL_ON),
    });
    renderAt('/admin/notifications');
    expect(await screen.findByRole('heading', { level: 1, name: 'Notifications' }, { timeout: 30_000 })).toBeInTheDocument();
    await waitFor(() => expect(document.querySelector('.ant-table-wrapper [aria-busy="true"]')).not.toBeNull());
    release();
    expect(await screen.findByText('The Xero sync for Acme failed.')).toBeInTheDocument();
    expect(screen.getByText('01 Sep 2026, 09:05')).toBeInTheDocument(); // BST
    expect(screen.getByRole('tab', { name: 'Unread (1)' })).toBeInTheDocument();
    expect(queryOf(fetchMock, '/api/notifications').at(-1)!.searchParams.get('status')).toBe('unread');

    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'All' }));
    await waitFor(() => expect(queryOf(fetchMock, '/api/notifications').at(-1)!.searchParams.get('status')).toBe('all'));

    await user.click(screen.getByRole('combobox', { name: 'Kind' }));
    await user.click(await screen.findByTitle('Failed payment'));
    await waitFor(() => expect(queryOf(fetchMock, '/api/notifications').at(-1)!.searchParams.get('kind')).toBe('payment_failed'));
  });

  it('says when there is nothing unread; mark read and mark all read call the server', async () => {
    const a = note({ body: 'a.pdf was uploaded.' });
    const b = note({ body: 'b.pdf was uploaded.' });
    let state: 'two' | 'one' | 'none' = 'two';
    const { callsTo } = mockFetch({
      ...SESSION,
      [UNREAD]: () => json(200, { count: state === 'two' ? 2 : state === 'one' ? 1 : 0, capped: false }),
      [LIST]: () => json(200, page(state === 'two' ? [a, b] : state === 'one' ? [b] : [])),
      [`POST /api/notifications/${a.id}/read`]: () => {
        state = 'one';
        return json(200, { success: true, unread: { count: 1, capped: false } });
      },
      [READ_ALL]: () => {
        state = 'none';
        return json(200, { success: true, unread: { count: 0, capped: false } });
      },
      [PREFS_GET]: () => json(200, ALL_ON),
    });
    renderAt('/admin/notifications');
    const user = userEvent.setup();
    expect(await screen.findByText('a.pdf was uploaded.', {}, { timeout: 30_000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Mark read: a.pdf was uploaded.' }));
    await waitFor(() => expect(callsTo(`POST /api/notifications/${a.id}/read`)).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('a.pdf was uploaded.')).not.toBeInTheDocument());
    expect(screen.getByRole('tab', { name: 'Unread (1)' })).toBeInTheDocument();

    const main = screen.getByRole('heading', { level: 1, name: 'Notifications' }).closest('.notifications-page') as HTMLElement;
    await user.click(within(main).getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(callsTo(READ_ALL)).toHaveLength(1));
    expect(await screen.findByText('You are all caught up: no unread notifications')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Unread' })).toBeInTheDocument();
    // (getByRole over the whole admin layout is slow under jsdom; the text is unique here.)
    await waitFor(() => expect(screen.getByText('Mark all read').closest('button')).toBeDisabled());
  });

  it('saves which kinds this administrator receives', async () => {
    let saved: unknown;
    const { callsTo } = mockFetch({
      ...SESSION,
      [UNREAD]: () => json(200, { count: 0, capped: false }),
      [LIST]: () => json(200, page([])),
      [PREFS_GET]: () => json(200, saved ?? ALL_ON),
      [PREFS_PUT]: (call) => {
        saved = call.body;
        return json(200, call.body);
      },
    });
    renderAt('/admin/notifications');
    const user = userEvent.setup();
    const group = await screen.findByRole('group', { name: 'Notification kinds I receive' }, { timeout: 30_000 });
    const boxes = within(group).getAllByRole('checkbox');
    expect(boxes).toHaveLength(NOTIFICATION_KINDS.length);
    expect(boxes).toHaveLength(9);
    for (const b of boxes) expect(b).toBeChecked();
    const save = screen.getByRole('button', { name: 'Save preferences' });
    expect(save).toBeDisabled();

    await user.click(within(group).getByRole('checkbox', { name: 'Document uploaded' }));
    await user.click(save);
    await waitFor(() => expect(callsTo(PREFS_PUT)).toHaveLength(1));
    expect(callsTo(PREFS_PUT)[0]!.body).toEqual({ kinds: { ...ALL_ON.kinds, document_uploaded: false } });
    expect(await screen.findByText('Preferences saved')).toBeInTheDocument();
    expect(within(group).getByRole('checkbox', { name: 'Document uploaded' })).not.toBeChecked();
  });
});
