import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../test/fetch-mock';
import { renderAt } from '../../../test/render';
import { setViewportMobile } from '../../../test/setup';
import { SIDEBAR_COOKIE_MAX_AGE } from './sidebar-state';

const alice = { id: 'a1', username: 'alice', role: 'manager' } as const;

async function renderAdmin(path = '/admin') {
  mockFetch({ 'GET /api/identity/admin/session': () => json(200, { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' }) });
  const view = renderAt(path);
  await screen.findByRole('heading', { name: 'Admin Control Panel' });
  return view;
}

const sider = () => document.getElementById('admin-sider')!;

describe('Admin sidebar', () => {
  it('has exactly the spec entries, in order, with their addresses', async () => {
    await renderAdmin();
    const nav = screen.getByRole('navigation', { name: 'Admin' });
    const items = [...nav.querySelectorAll('[role="menuitem"]')].map((el) => el.textContent);
    expect(items).toEqual([
      'Dashboard',
      'Clients',
      'Leads',
      'Staff',
      'Upgrades',
      'Tasks',
      'Deadlines',
      'Jobs',
      'MTD',
      'AML',
      'Documents',
      'Communications',
      'Billing',
      'Reports',
      'Company Settings',
      'Background Jobs',
      'User Roles',
      'Notifications',
      'Audit and records',
      'Sign Out',
    ]);
    expect(nav).toHaveTextContent('Settings');
    const href = (name: string) => screen.getByRole('link', { name }).getAttribute('href');
    expect(href('Dashboard')).toBe('/admin');
    expect(href('Clients')).toBe('/admin/clients');
    expect(href('Reports')).toBe('/admin/reports');
    expect(href('AML')).toBe('/admin/aml');
    expect(href('Jobs')).toBe('/admin/client-jobs');
    expect(href('Company Settings')).toBe('/admin/settings');
    expect(href('Background Jobs')).toBe('/admin/jobs');
    expect(href('User Roles')).toBe('/admin/roles');
    expect(href('Notifications')).toBe('/admin/notifications');
    expect(href('MTD')).toBe('/admin/mtd');
    expect(href('Audit and records')).toBe('/admin/audit');
  });

  it('is 16rem wide', async () => {
    await renderAdmin();
    expect(sider().style.width).toBe('16rem');
  });

  it('writes its state to the sidebar_state cookie when toggled', async () => {
    await renderAdmin();
    const user = userEvent.setup();
    expect(sider()).not.toHaveClass('ant-layout-sider-collapsed');

    await user.click(screen.getByRole('button', { name: 'Collapse sidebar' }));
    expect(sider()).toHaveClass('ant-layout-sider-collapsed');
    expect(document.cookie).toContain('sidebar_state=false');

    await user.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    expect(sider()).not.toHaveClass('ant-layout-sider-collapsed');
    expect(document.cookie).toContain('sidebar_state=true');
    expect(SIDEBAR_COOKIE_MAX_AGE).toBe(604800);
  });

  it('restores a closed sidebar from the cookie', async () => {
    document.cookie = 'sidebar_state=false; path=/';
    await renderAdmin();
    expect(sider()).toHaveClass('ant-layout-sider-collapsed');
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('collapses on viewports below 768px even if the cookie says open', async () => {
    document.cookie = 'sidebar_state=true; path=/';
    setViewportMobile();
    await renderAdmin();
    // On a phone the sidebar is a slide-over drawer (issue 22), closed until asked for.
    expect(document.querySelector('.ant-layout-sider')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument();
    expect(document.cookie).toContain('sidebar_state=true'); // an automatic collapse is not a preference
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    const nav = await screen.findByRole('navigation', { name: 'Admin' });
    await user.click(within(nav).getByRole('link', { name: 'Leads' }));
    // A choice closes the drawer; opening it on a phone is not remembered either.
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument());
    expect(document.cookie).toContain('sidebar_state=true');
  });

  it("on a phone, the drawer closes on any navigation, not only a choice in it (the browser's Back)", async () => {
    setViewportMobile();
    const { router } = await renderAdmin();
    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Expand sidebar' });
    await user.click(toggle);
    await screen.findByRole('navigation', { name: 'Admin' });
    expect(screen.getByRole('button', { name: 'Collapse sidebar' })).toHaveAttribute('aria-expanded', 'true');
    // Not a choice in the drawer: the router moves on its own, as the browser's Back does.
    await router.navigate('/admin/leads');
    expect(await screen.findByRole('heading', { name: 'Leads', level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('navigates from an entry and highlights it', async () => {
    const { router } = await renderAdmin();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Leads' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/leads'));
    expect(await screen.findByRole('heading', { name: 'Leads', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Leads' }).closest('[role="menuitem"]')).toHaveClass('ant-menu-item-selected');
  });

  // A page without an entry of its own marks the entry that leads to it; Background Jobs is not Jobs.
  it.each([
    ['/admin/audit', 'Audit and records'],
    ['/admin/mtd', 'MTD'],
    ['/admin/identity-verification', 'AML'],
    ['/admin/jobs', 'Background Jobs'],
    ['/admin/client-jobs', 'Jobs'],
    ['/admin/clients/c1', 'Clients'],
    ['/admin/work', 'Dashboard'],
    ['/admin/account-security', null],
  ])('on %s marks %s', async (path, entry) => {
    const { router } = await renderAdmin();
    await router.navigate(path);
    await waitFor(() => expect(router.state.location.pathname).toBe(path));
    const nav = screen.getByRole('navigation', { name: 'Admin' });
    await waitFor(() => {
      const marked = [...nav.querySelectorAll('.ant-menu-item-selected')].map((el) => el.textContent);
      expect(marked).toEqual(entry === null ? [] : [entry]);
    });
  });
});
