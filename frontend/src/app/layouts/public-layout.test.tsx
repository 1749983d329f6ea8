import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@countinghouse/proto';
import { apiError, json, mockFetch, PUBLIC_CONFIG } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';

const CONFIG = 'GET /api/public/config';

describe('Public layout', () => {
  it('shows the practice name, the nav links and the contact details from the config', async () => {
    mockFetch({ [CONFIG]: () => json(200, PUBLIC_CONFIG) });
    renderAt('/');
    const header = await screen.findByRole('banner');
    // The home page is in the entry chunk: the frame shows before the config arrives.
    expect(await within(header).findByRole('link', { name: 'Ledger & Co Accountants' })).toHaveAttribute('href', '/');
    const nav = within(header).getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Who we help', '/who-we-help'],
      ['Services', '/services'],
      ['Resources', '/resources'],
      ['About us', '/about-us'],
      ['Blog', '/blog'],
      ['Packages', '/package-selection'],
      ['Log in', '/login'],
    ]);
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: '020 7946 0000' })).toHaveAttribute('href', 'tel:02079460000');
    expect(within(footer).getByRole('link', { name: 'hello@ledger.example' })).toHaveAttribute('href', 'mailto:hello@ledger.example');
    expect(await within(screen.getByRole('main')).findByRole('heading', { level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Home | Countinghouse'));
  });

  it('shows the maintenance page when the gateway says so', async () => {
    mockFetch({ [CONFIG]: () => json(200, { ...PUBLIC_CONFIG, maintenance: true }) });
    renderAt('/services');
    expect(await screen.findByRole('heading', { name: MESSAGES.maintenanceHeading })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Services' })).not.toBeInTheDocument();
  });

  it('gives the practice phone and e-mail under the maintenance footer note', async () => {
    mockFetch({ [CONFIG]: () => json(200, { ...PUBLIC_CONFIG, maintenance: true }) });
    renderAt('/package-selection');
    await screen.findByRole('heading', { name: MESSAGES.maintenanceHeading });
    expect(screen.getByRole('link', { name: '020 7946 0000' })).toHaveAttribute('href', 'tel:02079460000');
    expect(screen.getByRole('link', { name: 'hello@ledger.example' })).toHaveAttribute('href', 'mailto:hello@ledger.example');
  });

  it('keeps the staff sign-in open during maintenance', async () => {
    mockFetch({ [CONFIG]: () => json(200, { ...PUBLIC_CONFIG, maintenance: true }) });
    renderAt('/staff-login');
    expect(await screen.findByLabelText(/email/i)).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.maintenanceHeading)).not.toBeInTheDocument();
  });

  it('treats a failing config call as "not in maintenance"', async () => {
    mockFetch({ [CONFIG]: () => apiError(500, 'INTERNAL', 'boom') });
    renderAt('/blog');
    expect(await screen.findByRole('heading', { level: 1, name: 'Blog' })).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.maintenanceHeading)).not.toBeInTheDocument();
  });
});

const ME = 'GET /api/identity/auth/me';
const SIGNED_IN_CLIENT = {
  user: {
    user_id: '00000000-0000-4000-8000-000000000002',
    email: 'sam@example.com',
    first_name: 'Sam',
    last_name: 'Patel',
    company_name: 'Patel Joinery',
    role: 'client',
    created_at: '2026-03-05T10:00:00Z',
  },
  roles: ['client'],
  staff_role: null,
  session_expires_at: '2030-01-01T00:00:00.000Z',
};

describe('Public layout: the signed-in header (issue 22)', () => {
  it('shows a visitor "Log in" and no Log out', async () => {
    mockFetch({ [CONFIG]: () => json(200, PUBLIC_CONFIG), [ME]: () => apiError(401, 'UNAUTHENTICATED', MESSAGES.authenticationError) });
    renderAt('/services');
    const header = await screen.findByRole('banner');
    expect(await within(header).findByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(within(header).queryByRole('button', { name: 'Log out' })).not.toBeInTheDocument();
  });

  it('shows who is signed in, Dashboard and Log out on a public page; Log out ends the session', async () => {
    const { callsTo } = mockFetch({
      [CONFIG]: () => json(200, PUBLIC_CONFIG),
      [ME]: [() => json(200, SIGNED_IN_CLIENT), () => apiError(401, 'UNAUTHENTICATED', MESSAGES.authenticationError)],
      'POST /api/identity/auth/logout': () => json(200, { success: true, message: MESSAGES.loggedOut }),
    });
    renderAt('/about-us');
    const header = await screen.findByRole('banner');
    expect(await within(header).findByText('Sam')).toBeInTheDocument();
    expect(within(header).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(within(header).queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
    within(header).getByRole('button', { name: 'Log out' }).click();
    await waitFor(() => expect(callsTo('POST /api/identity/auth/logout')).toHaveLength(1));
    expect(await within(header).findByRole('link', { name: 'Log in' })).toBeInTheDocument();
    expect(await screen.findByRole('status')).toHaveTextContent(MESSAGES.loggedOut);
  });

  it("sends a member of staff's Dashboard to the staff portal", async () => {
    mockFetch({
      [CONFIG]: () => json(200, PUBLIC_CONFIG),
      [ME]: () => json(200, { ...SIGNED_IN_CLIENT, roles: ['staff'], staff_role: 'staff' }),
    });
    renderAt('/blog');
    const header = await screen.findByRole('banner');
    expect(await within(header).findByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/staff/dashboard');
  });
});

describe('/test-login', () => {
  it('offers the three buttons in demo mode', async () => {
    mockFetch({ [CONFIG]: () => json(200, { ...PUBLIC_CONFIG, demoMode: true }) });
    renderAt('/test-login');
    for (const name of ['Sign up', 'Log in', 'User management']) {
      expect(await screen.findByRole('button', { name })).toBeInTheDocument();
    }
  });

  it('does not exist outside demo mode', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({ [CONFIG]: () => json(200, PUBLIC_CONFIG) });
    renderAt('/test-login');
    expect(await screen.findByText(MESSAGES.notFoundText)).toBeInTheDocument();
  });
});
