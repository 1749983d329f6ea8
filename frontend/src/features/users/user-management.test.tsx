import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDateTime, MESSAGES, type Lockout, type UserRow } from '@countinghouse/proto';
import { apiError, json, mockFetch, PUBLIC_CONFIG } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';

const USERS = 'GET /api/identity/users';
const LOCKOUTS = 'GET /api/identity/security/lockouts';
const config = { 'GET /api/public/config': () => json(200, PUBLIC_CONFIG) };
const row = (n: number): UserRow => ({
  user_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name: `Person ${n}`,
  email: `p${n}@example.co.uk`,
  company_name: n === 1 ? 'Acme Ltd' : null,
  role: n === 1 ? 'manager' : 'client',
  status: 'active',
  created_at: '2026-03-05T10:00:00Z',
});

describe('User management', () => {
  it("shows the cards, the note and 'No users registered yet' when empty", async () => {
    mockFetch({
      ...config,
      [USERS]: () => json(200, { users: [], total: 0, stats: { total_users: 0, active_clients: 0, new_this_month: 0 } }),
    });
    renderAt('/user-management');
    expect(await screen.findByText('No users registered yet')).toBeInTheDocument();
    for (const card of ['Total Users', 'Active Clients', 'New This Month'])
      expect(screen.getByRole('heading', { name: card })).toBeInTheDocument();
    expect(screen.getByText('Passwords are encrypted and cannot be shown')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'How to test login' })).toBeInTheDocument();
  });

  it('lists users with the columns and dd Mon yyyy dates, paginated by the server', async () => {
    const { callsTo } = mockFetch({
      ...config,
      [USERS]: () => json(200, { users: [row(1), row(2)], total: 45, stats: { total_users: 45, active_clients: 30, new_this_month: 4 } }),
    });
    renderAt('/user-management');
    expect(await screen.findByText('Person 1')).toBeInTheDocument();
    // the first table is the user list (the sign-in delays follow it)
    expect(
      within(screen.getAllByRole('table')[0]!)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Email', 'Company', 'Role', 'Status', 'Registered']);
    expect(screen.getByText('Acme Ltd')).toBeInTheDocument();
    expect(screen.getByText('Manager')).toBeInTheDocument();
    expect(screen.getAllByText('05 Mar 2026')).toHaveLength(2);
    expect(screen.getByText('45')).toBeInTheDocument();
    expect(screen.getByTitle('3')).toBeInTheDocument(); // 45 users, 20 a page: three pages
    expect(new URL(`http://x${callsTo(USERS)[0]!.path}`).pathname).toBe('/api/identity/users');
  });

  it("'Failed to load users' when the server fails", async () => {
    mockFetch({ ...config, [USERS]: () => apiError(500, 'INTERNAL', MESSAGES.internalError) });
    renderAt('/user-management');
    expect((await screen.findAllByText(MESSAGES.failedToLoadUsers)).length).toBeGreaterThanOrEqual(1);
  });

  it('a signed-in non-admin sees "You don\'t have access to this area"', async () => {
    mockFetch({ ...config, [USERS]: () => apiError(403, 'FORBIDDEN', MESSAGES.noAccessToArea) });
    renderAt('/user-management');
    expect(await screen.findByText(MESSAGES.noAccessToArea)).toBeInTheDocument();
  });

  it('nobody signed in: to /admin/login after trying both refreshes', async () => {
    const { callsTo } = mockFetch({
      ...config,
      [USERS]: () => apiError(401, 'UNAUTHENTICATED', MESSAGES.authenticationError),
      'POST /api/identity/auth/refresh': () => apiError(401, 'UNAUTHENTICATED', 'x'),
      'POST /api/identity/admin/refresh': () => apiError(401, 'UNAUTHENTICATED', 'x'),
    });
    const { router } = renderAt('/user-management');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(callsTo('POST /api/identity/auth/refresh')).toHaveLength(1);
    expect(callsTo('POST /api/identity/admin/refresh')).toHaveLength(1);
    expect(await screen.findByText(MESSAGES.pleaseLogInAdmin)).toBeInTheDocument();
  });

  it('lists the sign-in delays for administrators: who, address, when, until, attempts, running or ended', async () => {
    const lockout = (n: number, over: Partial<Lockout>): Lockout => ({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      scope: 'user',
      account: 'target@example.co.uk',
      address: '203.0.113.9',
      started_at: '2026-03-05T10:00:00Z',
      until: '2026-03-05T10:01:00Z',
      failures: 5,
      level: 0,
      active: false,
      ...over,
    });
    mockFetch({
      ...config,
      [USERS]: () => json(200, { users: [row(1)], total: 1, stats: { total_users: 1, active_clients: 0, new_this_month: 0 } }),
      [LOCKOUTS]: () =>
        json(200, {
          active: 1,
          lockouts: [
            lockout(1, { active: true, failures: 10, level: 1, until: '2099-01-01T00:02:00Z' }),
            lockout(2, { scope: 'address', account: null, address: '198.51.100.4', failures: 30 }),
          ],
        }),
    });
    renderAt('/user-management');
    expect(await screen.findByRole('heading', { name: 'Sign-in delays' })).toBeInTheDocument();
    expect(await screen.findByText('target@example.co.uk')).toBeInTheDocument();
    expect(screen.getByText('203.0.113.9')).toBeInTheDocument();
    expect(screen.getByText('Every account')).toBeInTheDocument();
    expect(screen.getByText('198.51.100.4')).toBeInTheDocument();
    expect(screen.getByText('running')).toBeInTheDocument();
    expect(screen.getByText('ended')).toBeInTheDocument();
    expect(screen.getByText('1 running now')).toBeInTheDocument();
    expect(screen.getAllByText(formatDateTime('2026-03-05T10:00:00Z')).length).toBe(2);
  });

  it("says when there were no delays, and 'Failed to load sign-in delays' when the list fails", async () => {
    const ok = () => json(200, { users: [row(1)], total: 1, stats: { total_users: 1, active_clients: 0, new_this_month: 0 } });
    mockFetch({ ...config, [USERS]: ok, [LOCKOUTS]: () => json(200, { active: 0, lockouts: [] }) });
    const first = renderAt('/user-management');
    expect(await screen.findByText('No sign-in delays so far')).toBeInTheDocument();
    first.unmount();
    mockFetch({ ...config, [USERS]: ok, [LOCKOUTS]: () => apiError(500, 'INTERNAL', MESSAGES.internalError) });
    renderAt('/user-management');
    expect(await screen.findByText(MESSAGES.failedToLoadLockouts)).toBeInTheDocument();
  });
});
