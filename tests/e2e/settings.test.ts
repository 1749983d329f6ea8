import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_AUTH_ROUTES, SETTINGS_ROUTES } from '@countinghouse/proto';
import { apiJson } from './http.js';
import { launchBrowser, newContext, startE2EServer, type E2EServer } from './server.js';

// Issue 9's acceptance for Company Settings: the maintenance switch and the contact phone, in Chromium.
let server: E2EServer;
let browser: Browser;
let admin: BrowserContext;
let page: Page;

const MAINTENANCE = 'Website Under Maintenance';

beforeAll(async () => {
  server = await startE2EServer({ PRACTICE_NAME: 'Ledger & Co Accountants', PRACTICE_PHONE: '020 7946 0321' });
  browser = await launchBrowser();
  admin = await newContext(browser, server.baseUrl);
  page = await admin.newPage();
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(server.admin.username);
  await page.getByLabel('Password').fill(server.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/admin');
  await page.getByRole('heading', { name: 'Admin Control Panel' }).waitFor();
});

afterAll(async () => {
  // The phone as it was (in the browser-distributed project later files share this product and its settings)
  if (server) {
    const { session_token } = await apiJson<{ session_token: string }>(server.baseUrl, '', 'POST', ADMIN_AUTH_ROUTES.login, server.admin);
    await apiJson(server.baseUrl, session_token, 'PATCH', SETTINGS_ROUTES.settings, { phone: '020 7946 0321', maintenance: false });
  }
  await browser?.close();
  await server?.close();
});

async function openSettings() {
  await page.goto('/admin/settings');
  await page.getByRole('heading', { level: 1, name: 'Company Settings' }).waitFor();
}

/** Flip the switch and confirm in the dialog. */
async function setMaintenance(on: boolean) {
  const toggle = page.getByRole('switch', { name: 'Maintenance mode' });
  expect(await toggle.getAttribute('aria-checked')).toBe(String(!on));
  await toggle.click();
  const dialog = page.getByRole('dialog').filter({ hasText: on ? 'Turn maintenance mode on?' : 'Turn maintenance mode off?' });
  // (the save's own answer, so that a failure says what the API answered, or that nothing was sent: in
  // browser-distributed this step once failed with the switch unchanged after 15 s and nothing more to go on)
  const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && new URL(r.url()).pathname === SETTINGS_ROUTES.settings, {
    timeout: 30_000,
  });
  await dialog.getByRole('button', { name: on ? 'Turn on' : 'Turn off' }).click();
  const reply = await saved.catch((err: Error) => {
    throw new Error(`no PATCH ${SETTINGS_ROUTES.settings} answered within 30 s of the click on the dialog's button: ${err.message}`);
  });
  expect(reply.status(), `PATCH ${SETTINGS_ROUTES.settings} answered: ${await reply.text()}`).toBe(200);
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe(String(on));
}

/** A fresh browser (no cookies, no cache) opening a page. */
async function visit(path: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, server.baseUrl);
  const p = await context.newPage();
  await p.goto(path);
  return { context, page: p };
}

describe('Company Settings (browser)', () => {
  it('maintenance on: a fresh browser sees the maintenance page on / and /package-selection; admin and staff areas stay open; off again', async () => {
    await openSettings();
    await setMaintenance(true);

    for (const path of ['/', '/package-selection', '/login']) {
      const v = await visit(path);
      await v.page.getByRole('heading', { name: MAINTENANCE }).waitFor();
      await v.page.getByText("We're currently updating our website to serve you better.").waitFor();
      await v.page.getByText('Please check back soon.').waitFor();
      await v.page.getByText('For urgent inquiries, please contact us directly.').waitFor();
      await v.page.getByRole('link', { name: '020 7946 0321' }).waitFor();
      if (path === '/') await v.page.screenshot({ path: '/tmp/e2e-maintenance.png' });
      await v.context.close();
    }

    // The staff sign-in and the admin sign-in stay reachable for anyone.
    const staff = await visit('/staff-login');
    await staff.page.getByRole('heading', { name: 'Staff login' }).waitFor();
    expect(await staff.page.getByRole('heading', { name: MAINTENANCE }).count()).toBe(0);
    await staff.page.goto('/admin-login');
    await staff.page.getByRole('heading', { name: 'Admin login' }).waitFor();
    await staff.context.close();

    // The signed-in admin still works in the panel.
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Admin Control Panel' }).waitFor();
    await openSettings();
    const history = page.locator('.ant-table-row').filter({ hasText: 'Maintenance mode' }).first();
    await history.waitFor();
    expect(await history.innerText()).toContain(server.admin.username);
    expect(await history.locator('td').last().innerText()).toMatch(/off\s*→\s*on/);

    await setMaintenance(false);
    const home = await visit('/');
    await home.page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await home.page.getByRole('heading', { name: MAINTENANCE }).count()).toBe(0);
    await home.page.getByRole('contentinfo').waitFor();
    await home.context.close();
  });

  it('a changed contact phone shows in the public footer', async () => {
    await openSettings();
    const phone = page.getByLabel('Contact phone');
    await expect.poll(() => phone.inputValue()).toBe('020 7946 0321');
    const save = page.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isDisabled()).toBe(true);
    await phone.fill('0161 496 0999');
    await save.click();
    await page.getByText('Settings saved').waitFor();
    await page.locator('.ant-table-row').filter({ hasText: '0161 496 0999' }).first().waitFor();
    await page.screenshot({ path: '/tmp/e2e-admin-settings.png', fullPage: true });

    const v = await visit('/');
    const footer = v.page.getByRole('contentinfo');
    await footer.getByRole('link', { name: '0161 496 0999' }).waitFor();
    expect(await footer.getByRole('link', { name: '0161 496 0999' }).getAttribute('href')).toBe('tel:01614960999');
    expect(await footer.getByText('020 7946 0321').count()).toBe(0);
    await v.context.close();
  });
});
