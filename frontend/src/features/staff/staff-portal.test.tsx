import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES, type Invitation } from '@countinghouse/proto';
import { apiError, json, mockFetch, PUBLIC_CONFIG } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { ME_ACCOUNTANT, ME_MANAGER, ME_STAFF } from './fixtures';

const ME = 'GET /api/identity/auth/me';
const REFRESH = 'POST /api/identity/auth/refresh';
const LOGOUT = 'POST /api/identity/auth/logout';
const INVITATIONS = 'GET /api/identity/invitations';
const STAFF = 'GET /api/identity/staff';
const config = { 'GET /api/public/config': () => json(200, PUBLIC_CONFIG) };

const invitation = (over: Partial<Invitation>): Invitation => ({
  id: '10000000-0000-4000-8000-000000000001',
  email: 'new@example.co.uk',
  role: 'staff',
  invited_by: null,
  invited_by_name: 'Mo',
  status: 'pending',
  expires_at: '2026-03-12T10:00:00Z',
  created_at: '2026-03-05T10:00:00Z',
  delivery: 'log',
  ...over,
});

describe('Staff portal', () => {
  it("signed out: 'Please log in to access the staff dashboard' and /staff-login (after one refresh try)", async () => {
    const { callsTo } = mockFetch({
      ...config,
      [ME]: () => apiError(401, 'UNAUTHENTICATED', MESSAGES.authenticationError),
      [REFRESH]: () => apiError(401, 'UNAUTHENTICATED', MESSAGES.userSessionExpired),
    });
    const { router } = renderAt('/staff/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/staff-login'));
    expect(await screen.findByText(MESSAGES.pleaseLogInStaff)).toBeInTheDocument();
    expect(callsTo(REFRESH)).toHaveLength(1);
  });

  it('an expired access token is refreshed once and the portal shows', async () => {
    mockFetch({
      ...config,
      [ME]: [() => apiError(401, 'SESSION_EXPIRED', 'expired'), () => json(200, ME_STAFF)],
      [REFRESH]: () => json(200, ME_STAFF),
    });
    renderAt('/staff/dashboard');
    expect(await screen.findByText('Welcome back, Sam')).toBeInTheDocument();
  });

  it('an accountant: "You don\'t have access to this area", signed out, /staff-login', async () => {
    const { callsTo } = mockFetch({
      ...config,
      [ME]: () => json(200, ME_ACCOUNTANT),
      [LOGOUT]: () => json(200, { success: true, message: MESSAGES.loggedOut }),
    });
    const { router } = renderAt('/staff/dashboard');
    expect(await screen.findByText(MESSAGES.noAccessToArea)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/staff-login'));
    expect(callsTo(LOGOUT)).toHaveLength(1);
  });

  it('staff: welcome header, role badge, three stat cards, six tabs and no Staff Management', async () => {
    mockFetch({ ...config, [ME]: () => json(200, ME_STAFF) });
    renderAt('/staff/dashboard');
    expect(await screen.findByText('Welcome back, Sam')).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByText('Staff')).toBeInTheDocument();
    // The cards and tabs' contents come from the crm and documents areas (portal-slots.tsx), lazily.
    for (const title of ['Total Clients', 'Active Clients', 'Monthly Revenue']) expect(await screen.findByText(title)).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Client Database',
      'Client Documents',
      'Leads',
      'Deadlines',
      'Requests',
      'Engagement letters',
    ]);
  });

  it("a manager (no first name: the e-mail) gets Staff Management; Logout says 'Logged out successfully'", async () => {
    const { callsTo } = mockFetch({
      ...config,
      [ME]: () => json(200, ME_MANAGER),
      [INVITATIONS]: () => json(200, { invitations: [], smtp_configured: false }),
      [STAFF]: () => json(200, { staff: [] }),
      [LOGOUT]: () => json(200, { success: true, message: MESSAGES.loggedOut }),
    });
    const { router } = renderAt('/staff/dashboard');
    expect(await screen.findByText('Welcome back, mo@example.co.uk')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Staff Management' }));
    expect(await screen.findByText('E-mail is not set up on this server')).toBeInTheDocument();
    // Only an admin may open the outgoing-mail log. (Text queries: role queries over the panel's large
    // antd DOM take seconds each in jsdom.)
    expect(screen.queryByText('Open the outgoing-mail log')).not.toBeInTheDocument();
    await user.click(screen.getByText('Logout'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/staff-login'));
    expect(await screen.findByText(MESSAGES.loggedOut)).toBeInTheDocument();
    expect(callsTo(LOGOUT)).toHaveLength(1);
  });

  it('a session that ends while the portal is open (e.g. deactivated) sends the user to /staff-login', async () => {
    mockFetch({
      ...config,
      [ME]: () => json(200, ME_MANAGER),
      [INVITATIONS]: () => apiError(401, 'SESSION_EXPIRED', 'expired'),
      [STAFF]: () => apiError(401, 'SESSION_EXPIRED', 'expired'),
      [REFRESH]: () => apiError(401, 'SESSION_EXPIRED', MESSAGES.userSessionExpired),
    });
    const { router } = renderAt('/staff/dashboard');
    await userEvent.setup().click(await screen.findByRole('tab', { name: 'Staff Management' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/staff-login'));
    expect(await screen.findByText(MESSAGES.pleaseLogInStaff)).toBeInTheDocument();
  });

  it('lists invitations newest first, never with a link; Re-send for pending and expired ones, Cancel for pending ones', async () => {
    mockFetch({
      ...config,
      [ME]: () => json(200, ME_MANAGER),
      [INVITATIONS]: () =>
        json(200, {
          smtp_configured: true,
          invitations: [
            invitation({
              id: '10000000-0000-4000-8000-000000000002',
              email: 'old@example.co.uk',
              status: 'expired',
              created_at: '2026-02-01T10:00:00Z',
            }),
            invitation({ email: 'new@example.co.uk' }),
            invitation({
              id: '10000000-0000-4000-8000-000000000003',
              email: 'gone@example.co.uk',
              status: 'cancelled',
              created_at: '2026-02-20T10:00:00Z',
            }),
          ],
        }),
      [STAFF]: () => json(200, { staff: [] }),
    });
    renderAt('/staff/dashboard');
    await userEvent.setup().click(await screen.findByRole('tab', { name: 'Staff Management' }));
    const rows = await screen.findAllByTestId('invitation');
    expect(rows.map((r) => r.textContent?.match(/^\S+@example\.co\.uk/)?.[0])).toEqual([
      'new@example.co.uk',
      'gone@example.co.uk',
      'old@example.co.uk',
    ]);
    // Text queries: role queries over antd's large DOM are slow in jsdom.
    for (const row of rows) expect(within(row).queryByText('Copy Link')).toBeNull();
    expect(within(rows[0]!).getByLabelText('Re-send the invitation to new@example.co.uk')).toBeInTheDocument();
    expect(within(rows[0]!).getByLabelText(`Cancel invitation for new@example.co.uk`)).toBeInTheDocument();
    expect(within(rows[0]!).getByText('05 Mar 2026', { exact: false })).toBeInTheDocument();
    expect(rows[1]!.querySelector('button')).toBeNull();
    expect(within(rows[1]!).getByText('cancelled')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('expired')).toBeInTheDocument();
    expect(within(rows[2]!).getByLabelText('Re-send the invitation to old@example.co.uk')).toBeInTheDocument();
    expect(within(rows[2]!).queryByLabelText('Cancel invitation for old@example.co.uk')).toBeNull();
  });

  it('a manager is offered only the roles below their own', async () => {
    mockFetch({
      ...config,
      [ME]: () => json(200, ME_MANAGER),
      [INVITATIONS]: () => json(200, { smtp_configured: true, invitations: [] }),
      [STAFF]: () => json(200, { staff: [] }),
    });
    renderAt('/staff/dashboard');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Staff Management' }));
    await user.click(await screen.findByLabelText('Role'));
    expect(await screen.findByTitle('Accountant')).toBeInTheDocument();
    expect(screen.getByTitle('Staff')).toBeInTheDocument();
    expect(screen.queryByTitle('Admin')).toBeNull();
    expect(screen.queryByTitle('Manager')).toBeNull();
  });

  it("'Failed to load staff data' when the lists cannot load", async () => {
    mockFetch({
      ...config,
      [ME]: () => json(200, ME_MANAGER),
      [INVITATIONS]: () => apiError(500, 'INTERNAL', 'x'),
      [STAFF]: () => json(200, { staff: [] }),
    });
    renderAt('/staff/dashboard');
    await userEvent.setup().click(await screen.findByRole('tab', { name: 'Staff Management' }));
    expect((await screen.findAllByText(MESSAGES.failedToLoadStaffData)).length).toBeGreaterThanOrEqual(1);
  });
});
