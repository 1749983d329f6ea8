import { MESSAGES } from '@countinghouse/proto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, startE2EServer, type E2EServer } from './server.js';

// Issue 9's User Roles acceptance, in Chromium against the all-in-one server: the admin grants a role
// to a registered person and sees them listed, revokes it, and is refused removing the last admin.
let server: E2EServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const ROBIN = { email: 'robin.reed@example.co.uk', password: 'robin-reed-pass-1', first: 'Robin', last: 'Reed' };

const roleCard = (role: string) => page.getByTestId(`role-${role}`);
const openOptions = () => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
const popconfirm = () => page.locator('.ant-popconfirm:not(.ant-popover-hidden)');

beforeAll(async () => {
  server = await startE2EServer();
  browser = await launchBrowser();
  context = await newContext(browser, server.baseUrl);
  page = await context.newPage();
  const res = await fetch(`${server.baseUrl}/api/identity/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ROBIN.email, password: ROBIN.password, first_name: ROBIN.first, last_name: ROBIN.last }),
  });
  expect(res.status, await res.text()).toBe(201);
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

async function activeGrant(role: string): Promise<boolean> {
  const { rows } = await server.pool.query(
    `select r.is_active from identity.user_roles r join identity.users u on u.id = r.user_id where lower(u.email) = $1 and r.role = $2`,
    [ROBIN.email, role],
  );
  return Boolean(rows[0]?.is_active);
}

describe('User Roles in the browser', () => {
  it('the admin opens /admin/roles and sees the permissions matrix and the admin panel account', async () => {
    await page.goto('/admin/login');
    await page.getByLabel('Username').fill(server.admin.username);
    await page.getByLabel('Password').fill(server.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/admin');
    await page.getByRole('heading', { name: 'Admin Control Panel' }).waitFor();
    await page.getByRole('link', { name: 'User Roles' }).click();
    await page.waitForURL('**/admin/roles');
    await page.getByRole('heading', { level: 1, name: 'User Roles' }).waitFor();
    const matrix = page.getByRole('table', { name: 'Permissions by role' });
    await matrix.locator('tr[data-permission="roles"]').getByText('Manage roles').waitFor();
    expect(await matrix.locator('tr[data-permission="roles"] td.roles-matrix__yes').count()).toBe(1);
    await roleCard('admin').getByText(server.admin.username, { exact: true }).waitFor();
    await roleCard('admin').getByText('Admin panel account').waitFor();
    await roleCard('manager').getByText('No one holds this role').waitFor();
  });

  it('grants Manager to a registered person, picked by search, and lists them', async () => {
    await page.getByLabel('Person').click();
    await page.getByLabel('Person').fill('robin');
    await openOptions()
      .filter({ hasText: `Robin Reed — ${ROBIN.email}` })
      .click();
    await page.getByLabel('Role', { exact: true }).click();
    await openOptions()
      .filter({ hasText: /^Manager$/ })
      .click();
    await page.getByRole('button', { name: 'Grant role' }).click();
    await page.getByText(MESSAGES.roleGranted).first().waitFor();
    await roleCard('manager').getByText(`Robin Reed (${ROBIN.email})`).waitFor();
    expect(await activeGrant('manager')).toBe(true);
  });

  it('revokes it after confirmation', async () => {
    const row = roleCard('manager').getByTestId('role-holder').filter({ hasText: ROBIN.email });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await popconfirm().getByText('Revoke Manager from Robin Reed?').waitFor();
    await popconfirm().getByRole('button', { name: 'Revoke' }).click();
    await page.getByText(MESSAGES.roleRevoked).first().waitFor();
    await roleCard('manager').getByText('No one holds this role').waitFor();
    expect(await activeGrant('manager')).toBe(false);
  });

  it('is refused removing the last admin, with the reason', async () => {
    const row = roleCard('admin').getByTestId('role-holder').filter({ hasText: server.admin.username });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await popconfirm().getByText(`Deactivate the admin panel account ${server.admin.username}?`).waitFor();
    await popconfirm().getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText(MESSAGES.lastAdminRefused).first().waitFor();
    await roleCard('admin').getByText(server.admin.username, { exact: true }).waitFor();
    const { rows } = await server.pool.query(`select is_active from identity.admin_users where username = $1`, [server.admin.username]);
    expect(rows[0].is_active).toBe(true);
    // and the panel still works for them
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'User Roles' }).waitFor();
    await roleCard('admin').getByText('Admin panel account').waitFor();
  });
});
