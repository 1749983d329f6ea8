import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@countinghouse/proto';
import { ADMIN_STORAGE_KEY } from '../../admin-session';
import { apiError, json, mockFetch } from '../../../test/fetch-mock';
import { renderAt } from '../../../test/render';

const VERIFY = 'GET /api/identity/admin/session';
const REFRESH = 'POST /api/identity/admin/refresh';
const LOGOUT = 'POST /api/identity/admin/logout';
const UNREAD = 'GET /api/notifications/unread-count';
const alice = { id: 'a1', username: 'alice', role: 'admin' } as const;
const verified = () => json(200, { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' });

describe('Protected admin layout', () => {
  it('shows a spinner, then redirects to /admin/login with "Please log in…" when there is no session', async () => {
    const { callsTo } = mockFetch({
      [VERIFY]: () => apiError(401, 'UNAUTHENTICATED', 'Authentication required'),
      [REFRESH]: () => apiError(401, 'UNAUTHENTICATED', 'Authentication required'),
    });
    const { router } = renderAt('/admin/clients');

    expect(await screen.findByText('Checking access…')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(await screen.findByText(MESSAGES.pleaseLogInAdmin)).toBeInTheDocument();
    expect(callsTo(REFRESH)).toHaveLength(1); // exactly one refresh attempt
    expect(callsTo(VERIFY)).toHaveLength(1); // no retry after a failed refresh
    expect(screen.queryByText('Admin Control Panel')).not.toBeInTheDocument();
  });

  it('says "Session expired…" and clears the stored admin when a known session cannot be renewed', async () => {
    window.sessionStorage.setItem(ADMIN_STORAGE_KEY, JSON.stringify(alice));
    mockFetch({
      [VERIFY]: () => apiError(401, 'SESSION_EXPIRED', 'Session expired'),
      [REFRESH]: () => apiError(401, 'SESSION_EXPIRED', 'Session expired'),
    });
    const { router, store } = renderAt('/admin');

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(await screen.findByText(MESSAGES.adminSessionExpired)).toBeInTheDocument();
    expect(store.getState().adminSession.user).toBeNull();
    expect(window.sessionStorage.getItem(ADMIN_STORAGE_KEY)).toBeNull();
  });

  it('refreshes an expired session once, retries the check and shows the panel', async () => {
    const { callsTo } = mockFetch({
      [VERIFY]: [() => apiError(401, 'SESSION_EXPIRED', 'Session expired'), verified],
      [REFRESH]: verified,
    });
    const { router } = renderAt('/admin/dashboard');

    expect(await screen.findByRole('heading', { name: 'Admin Control Panel' })).toBeInTheDocument();
    expect(screen.getByText('Welcome back, alice')).toBeInTheDocument();
    expect(callsTo(REFRESH)).toHaveLength(1);
    expect(callsTo(VERIFY)).toHaveLength(2);
    expect(router.state.location.pathname).toBe('/admin/dashboard');
  });

  it('shows the header: search box, the real unread count on the bell, username, role and initial', async () => {
    mockFetch({ [VERIFY]: verified, [UNREAD]: () => json(200, { count: 7, capped: false }) });
    renderAt('/admin');
    expect(await screen.findByPlaceholderText('Search clients, leads, tasks...')).toBeEnabled();
    // The spec's fixed badge of 3 is replaced by the unread count (issue 9).
    expect(await screen.findByRole('button', { name: 'Notifications (7 unread)' })).toBeInTheDocument();
    const banner = screen.getByRole('banner');
    expect(banner.querySelector('.ant-badge-count')).toHaveTextContent('7');
    expect(banner).toHaveTextContent('alice');
    expect(banner).toHaveTextContent('admin');
    expect(banner).toHaveTextContent('A');
  });

  it('shows no badge on the bell when nothing is unread, and 99+ above 99', async () => {
    mockFetch({ [VERIFY]: verified, [UNREAD]: [() => json(200, { count: 0, capped: false })] });
    const first = renderAt('/admin');
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.getByRole('banner').querySelector('.ant-badge-count')).toBeNull();
    first.unmount();

    mockFetch({ [VERIFY]: verified, [UNREAD]: () => json(200, { count: 1000, capped: true }) });
    renderAt('/admin');
    expect(await screen.findByRole('button', { name: 'Notifications (99+ unread)' })).toBeInTheDocument();
    expect(screen.getByRole('banner').querySelector('.ant-badge-count')).toHaveTextContent('99+');
  });

  it('does not sign the admin out when the server is unreachable', async () => {
    window.sessionStorage.setItem(ADMIN_STORAGE_KEY, JSON.stringify(alice));
    mockFetch({ [VERIFY]: () => apiError(503, 'UPSTREAM_UNAVAILABLE', 'Service unavailable') });
    const { router, store } = renderAt('/admin');
    expect(await screen.findByText('We could not check your access')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin');
    expect(store.getState().adminSession.user).toEqual(alice);
  });
});

describe('Admin sign-out', () => {
  it('calls logout, clears the session, toasts and goes to /admin/login', async () => {
    const { callsTo } = mockFetch({ [VERIFY]: verified, [LOGOUT]: () => json(200, { success: true, message: 'ok' }) });
    const { router, store } = renderAt('/admin');
    await userEvent.setup().click(await screen.findByRole('button', { name: /Logout/ }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(await screen.findByText(MESSAGES.loggedOut)).toBeInTheDocument();
    expect(callsTo(LOGOUT)).toHaveLength(1);
    expect(store.getState().adminSession.user).toBeNull();
    expect(window.sessionStorage.getItem(ADMIN_STORAGE_KEY)).toBeNull();
  });

  it('still signs out locally when the logout call fails, without the success toast', async () => {
    mockFetch({ [VERIFY]: verified, [LOGOUT]: () => apiError(500, 'INTERNAL', 'boom') });
    const { router, store } = renderAt('/admin');
    await userEvent.setup().click(await screen.findByText('Sign Out'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(store.getState().adminSession.user).toBeNull();
    expect(screen.queryByText(MESSAGES.loggedOut)).not.toBeInTheDocument();
  });
});
