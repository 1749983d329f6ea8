import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@countinghouse/proto';
import { json, mockFetch, PUBLIC_CONFIG } from '../test/fetch-mock';
import { renderAt } from '../test/render';

const alice = { id: 'a1', username: 'alice', role: 'admin' } as const;

// Every address of the spec's route table (section 2) must answer with a page, never the 404.
const PLACEHOLDER_ROUTES = [
  '/',
  '/package-selection',
  '/login',
  '/signup',
  '/dashboard',
  '/client-dashboard',
  '/who-we-help',
  '/services',
  '/resources',
  '/about-us',
  '/blog',
  '/staff-login',
  '/staff/login',
  '/staff/signup?token=abc',
  '/staff/dashboard',
  '/payment-success?session_id=cs_test_1',
  '/integrations',
  '/integrations/xero/callback',
  '/user-management',
  ...[
    'clients',
    'leads',
    'staff',
    'upgrades',
    'tasks',
    'documents',
    'communications',
    'billing',
    'reports',
    'settings',
    'roles',
    'notifications',
  ].map((s) => `/admin/${s}`),
];

describe('route table', () => {
  it.each(PLACEHOLDER_ROUTES)('%s has a page that says plainly it is not built yet', async (path) => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({
      'GET /api/public/config': () => json(200, PUBLIC_CONFIG),
      'GET /api/identity/admin/session': () => json(200, { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' }),
    });
    renderAt(path);
    expect(await screen.findByText('This page is not built yet')).toBeInTheDocument();
    expect(screen.getByText(path.split('?')[0]!)).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.notFoundText)).not.toBeInTheDocument();
    expect(consoleError).not.toHaveBeenCalled();
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
