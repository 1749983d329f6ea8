import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, startE2EServer, type E2EServer } from './server.js';

// Issue 2's acceptance: administrator sign-in in a real browser against the all-in-one server.
let server: E2EServer;
let browser: Browser;

beforeAll(async () => {
  server = await startE2EServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('admin sign-in (browser)', () => {
  it("a wrong password shows 'Invalid credentials' and stays on the login page", async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/admin/login');
    await page.getByLabel('Username').fill(server.admin.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('main').getByRole('alert').filter({ hasText: 'Invalid credentials' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await context.close();
  });

  it('/admin-login is the same page', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/admin-login');
    await page.getByRole('heading', { name: 'Admin login' }).waitFor();
    // Signing in there works the same way.
    await page.getByLabel('Username').fill(server.admin.username);
    await page.getByLabel('Password').fill(server.admin.password);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL('**/admin');
    await page.getByRole('heading', { name: 'Admin Control Panel' }).waitFor();
    await context.close();
  });

  it('signs in, keeps the session on reload, signs out, and the old session no longer works', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/admin/login');
    await page.getByLabel('Username').fill(server.admin.username);
    await page.getByLabel('Password').fill(server.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/admin');
    await page.getByRole('heading', { name: 'Admin Control Panel' }).waitFor();
    await page.getByText(`Welcome back, ${server.admin.username}`).waitFor();
    await page.screenshot({ path: '/tmp/e2e-admin-panel.png', fullPage: true });

    await page.reload();
    await page.getByRole('heading', { name: 'Admin Control Panel' }).waitFor();
    await page.getByText(`Welcome back, ${server.admin.username}`).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin');

    const saved = await context.cookies();
    const access = saved.find((c) => c.name === 'ch_at');
    expect(access?.httpOnly).toBe(true);
    expect(saved.some((c) => c.name === 'ch_admin_rt')).toBe(true);

    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL('**/admin/login');
    await page.getByLabel('Username').waitFor();

    // The cookies from before sign-out, in a fresh browser: the panel sends them back to the login page.
    const replay = await newContext(browser, server.baseUrl);
    await replay.addCookies(saved);
    const replayPage = await replay.newPage();
    await replayPage.goto('/admin');
    await replayPage.waitForURL('**/admin/login');
    await replayPage.getByLabel('Username').waitFor();

    // And the API itself refuses the old access token.
    const r = await fetch(`${server.baseUrl}/api/identity/admin/session`, { headers: { cookie: `ch_at=${access!.value}` } });
    expect(r.status).toBe(401);
    await replay.close();
    await context.close();
  });
});
