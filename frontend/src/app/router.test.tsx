import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@countinghouse/proto';
import { apiError, json, mockFetch, PUBLIC_CONFIG } from '../test/fetch-mock';
import { renderAt } from '../test/render';

const alice = { id: 'a1', username: 'alice', role: 'admin' } as const;
const CLIENT_ROUTES = ['/dashboard', '/client-dashboard', '/payment-success?session_id=cs_test_1', '/integrations'];
const ME_CLIENT = {
  user: {
    user_id: '00000000-0000-4000-8000-000000000001',
    email: 'carol@example.co.uk',
    first_name: 'Carol',
    last_name: null,
    company_name: null,
    role: 'client',
    created_at: '2026-03-05T10:00:00Z',
  },
  roles: ['client'],
  staff_role: null,
  session_expires_at: '2026-04-05T10:00:00Z',
};

// Every address of the spec's route table (section 2) must answer with a page, never the 404.
// /admin/roles is built: features/roles/roles.test.tsx renders it through this router.
/** The crm pages (issue 5) and their headings. */
const CRM_PAGES = [
  ['/admin/clients', 'Clients'],
  ['/admin/leads', 'Leads'],
  ['/admin/tasks', 'Tasks'],
  ['/admin/upgrades', 'Upgrades'],
  ['/admin/communications', 'Communications'],
] as const;

// The public site (issue 6): each page with its heading.
const PUBLIC_PAGES = [
  ['/', 'Your books, your tax, your accountant. One fixed monthly fee.'],
  ['/package-selection', 'Choose your package'],
  ['/who-we-help', 'Who we help'],
  ['/services', 'Services'],
  ['/resources', 'Resources'],
  ['/about-us', 'About us'],
  ['/blog', 'Blog'],
  ['/blog/when-should-you-register-for-vat', 'When should you register for VAT?'],
] as const;

describe('route table', () => {
  it('/admin/settings is Company Settings', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({
      'GET /api/public/config': () => json(200, PUBLIC_CONFIG),
      'GET /api/identity/admin/session': () => json(200, { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' }),
      'GET /api/settings': () =>
        json(200, { ...PUBLIC_CONFIG.practice, maintenance: false, version: 1, updated_at: '2026-03-05T10:00:00Z', updated_by: null }),
      'GET /api/settings/changes': () => json(200, { changes: [], total: 0, page: 1, page_size: 10 }),
    });
    renderAt('/admin/settings');
    expect(await screen.findByRole('heading', { level: 1, name: 'Company Settings' })).toBeInTheDocument();
    expect(await screen.findByRole('switch', { name: 'Maintenance mode' })).toBeInTheDocument();
    expect(screen.queryByText('This page is not built yet')).not.toBeInTheDocument();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it.each(PUBLIC_PAGES)('%s is built: heading %s', async (path, heading) => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({ 'GET /api/public/config': () => json(200, PUBLIC_CONFIG) });
    renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it.each(['/dashboard', '/client-dashboard'])('%s is the client dashboard for a signed-in client', async (path) => {
    mockFetch({
      'GET /api/public/config': () => json(200, PUBLIC_CONFIG),
      'GET /api/identity/auth/me': () => json(200, ME_CLIENT),
      'GET /api/billing/subscription': () =>
        json(200, { subscribed: false, package_name: null, subscription_end: null, status: null, monthly_fee: null, provider: null }),
    });
    renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: 'Your dashboard' })).toBeInTheDocument();
    expect(await screen.findByText('You do not have an active package yet.')).toBeInTheDocument();
  });

  it.each(CRM_PAGES)('%s is the crm page %s', async (path, heading) => {
    mockFetch({ 'GET /api/identity/admin/session': () => json(200, { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' }) });
    renderAt(path);
    expect(await screen.findByRole('heading', { name: heading, level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('This page is not built yet')).not.toBeInTheDocument();
  });

  it('/admin/billing is the billing page', async () => {
    mockFetch({
      'GET /api/identity/admin/session': () => json(200, { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' }),
      'GET /api/billing/admin/summary': () =>
        json(200, { mrr: 100, active: 1, overdue: 0, cancelled: 0, pending: 0, collected_30d: 100, failed_payments: [], provider: 'test' }),
      'GET /api/billing/admin/subscriptions': () => json(200, { subscriptions: [], total: 0, page: 1, page_size: 25 }),
    });
    renderAt('/admin/billing');
    expect(await screen.findByRole('heading', { name: 'Billing' })).toBeInTheDocument();
    expect(await screen.findAllByText('£100.00')).toHaveLength(2);
  });

  it('/integrations is the integrations page for a signed-in client', async () => {
    mockFetch({
      'GET /api/public/config': () => json(200, PUBLIC_CONFIG),
      'GET /api/identity/auth/me': () => json(200, ME_CLIENT),
      'GET /api/integrations': () => json(200, { client: { id: 'c1', company_name: 'Carol Ltd' }, integrations: [] }),
    });
    renderAt('/integrations');
    expect(await screen.findByRole('heading', { name: 'Integrations' })).toBeInTheDocument();
    expect(screen.queryByText('This page is not built yet')).not.toBeInTheDocument();
  });

  it('/admin/documents is the documents page', async () => {
    mockFetch({
      'GET /api/identity/admin/session': () => json(200, { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' }),
      'GET /api/documents': () => json(200, { documents: [], total: 0, total_exact: true, page: 1, page_size: 20 }),
      'GET /api/documents/summary': () => json(200, { total: 0, active: 0, pending: 0, clients: 0 }),
    });
    renderAt('/admin/documents');
    expect(await screen.findByRole('heading', { name: 'Client Documents' })).toBeInTheDocument();
    expect(screen.queryByText('This page is not built yet')).not.toBeInTheDocument();
  });

  it.each(CLIENT_ROUTES)('%s sends a signed-out visitor to /login and back afterwards', async (path) => {
    mockFetch({
      'GET /api/public/config': () => json(200, PUBLIC_CONFIG),
      'GET /api/identity/auth/me': () => apiError(401, 'UNAUTHENTICATED', MESSAGES.authenticationError),
      'POST /api/identity/auth/refresh': () => apiError(401, 'UNAUTHENTICATED', MESSAGES.userSessionExpired),
    });
    const { router } = renderAt(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(path);
    expect(await screen.findByLabelText('Email')).toHaveFocus();
  });

  it.each([
    ['/login', 'Log in'],
    ['/signup', 'Create your account'],
    ['/staff-login', 'Staff login'],
    ['/staff/login', 'Staff login'],
  ])('%s is built: heading %s', async (path, heading) => {
    mockFetch({ 'GET /api/public/config': () => json(200, PUBLIC_CONFIG) });
    renderAt(path);
    expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
  });

  it.each(['/admin', '/admin/dashboard'])('%s is the admin control panel', async (path) => {
    mockFetch({
      'GET /api/identity/admin/session': () => json(200, { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' }),
    });
    renderAt(path);
    expect(await screen.findByRole('heading', { name: 'Admin Control Panel' })).toBeInTheDocument();
  });

  it.each(['/admin/login', '/admin-login'])('%s is the admin login page', async (path) => {
    mockFetch({});
    renderAt(path);
    expect(await screen.findByLabelText('Username')).toBeInTheDocument();
  });
});
