import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, totp } from '../../services/identity/src/domain/totp.js';
import { hashPassword } from '../../services/identity/src/adapters/passwords.js';
import { auditPage, describeProblems, PHONE, seriousViolations, settle } from './a11y.js';
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

  it('two-factor sign-in for an admin panel account (issue 32): set up on Account security, then sign in with a code or a recovery code', async () => {
    // An admin panel account of its own, so the other tests keep signing in with the password alone.
    const account = { username: 'second.factor.admin', password: 'Second-Factor-Admin-Pass-1' };
    await server.pool.query(`insert into identity.admin_users (username, password_hash, role) values ($1, $2, 'admin')`, [
      account.username,
      await hashPassword(account.password),
    ]);
    const now = () => Math.floor(Date.now() / 1000);
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/admin/login');
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill(account.password);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL('**/admin');
    await page.getByRole('link', { name: 'Account security' }).click();
    await page.waitForURL('**/admin/account-security');
    // The page before and after enrolment, at 1280 and 390 px.
    const before = await auditPage(page, '/admin/account-security', (p) =>
      p.getByRole('button', { name: 'Set up an authenticator app' }).waitFor(),
    );
    expect(describeProblems(before)).toEqual([]);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page
      .getByRole('img', { name: /QR code/ })
      .locator('svg')
      .waitFor();
    const key = base32Decode((await page.getByTestId('totp-secret').innerText()).replace(/\s/g, ''))!;
    // The current step's code: the server takes a step either side, so a step boundary passed before it
    // checks does no harm (the previous step's code would then be two behind and refused).
    const enrolledAt = now();
    await page.getByLabel('Authentication code').fill(totp(key, enrolledAt));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    const recovery = (await codes.allInnerTexts()).map((c) => c.trim());
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download codes' }).click();
    expect((await download).suggestedFilename()).toBe('countinghouse-recovery-codes.txt');
    await page.screenshot({ path: '/tmp/e2e-admin-two-factor-codes.png', fullPage: true });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/admin');
    const after = await auditPage(page, '/admin/account-security', (p) => p.getByRole('button', { name: 'New recovery codes' }).waitFor());
    expect(describeProblems(after)).toEqual([]);
    await context.close();

    // A new browser (a phone): the password, then the code the app shows now, in the second step.
    const again = await newContext(browser, server.baseUrl);
    const next = await again.newPage();
    await next.setViewportSize(PHONE);
    await next.goto('/admin/login');
    await next.getByLabel('Username').fill(account.username);
    await next.getByLabel('Password').fill(account.password);
    await next.getByLabel('Password').press('Enter');
    const code = next.getByLabel('Authentication code');
    await code.waitFor();
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    await settle(next);
    expect(await seriousViolations(next)).toEqual([]);
    await next.screenshot({ path: '/tmp/e2e-admin-login-code.png', fullPage: true });
    // A code works once: a step later than enrolment's, the next one if the clock is still in it.
    await code.fill(totp(key, Math.max(now(), enrolledAt + 30)));
    await code.press('Enter');
    await next.waitForURL('**/admin');
    await next.getByText(`Welcome back, ${account.username}`).waitFor();
    await again.close();

    // Another: "Use a recovery code", which then works once.
    for (const expected of ['signed in', 'refused'] as const) {
      const third = await newContext(browser, server.baseUrl);
      const p3 = await third.newPage();
      await p3.goto('/admin/login');
      await p3.getByLabel('Username').fill(account.username);
      await p3.getByLabel('Password').fill(account.password);
      await p3.getByLabel('Password').press('Enter');
      await p3.getByRole('button', { name: 'Use a recovery code' }).click();
      await p3.getByLabel('Recovery code').fill(recovery[0]!);
      await p3.getByLabel('Recovery code').press('Enter');
      if (expected === 'signed in') await p3.waitForURL('**/admin');
      else {
        await p3.locator('main').getByRole('alert').filter({ hasText: 'That code is not right, or it has already been used.' }).waitFor();
        expect(new URL(p3.url()).pathname).toBe('/admin/login');
      }
      await third.close();
    }
  });
});
