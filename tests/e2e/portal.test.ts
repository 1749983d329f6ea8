import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPage, describeProblems, documentWidth, PHONE, type PageCheck } from './a11y.js';
import { apiJson, waitUntil } from './http.js';
import { signTermsBeforePaying } from './terms.js';
import { launchBrowser, newContext, startE2EServer, type E2EServer } from './server.js';

// Issue 33, item 4: the client portal. A demo client signs in, takes the Growth package (letter, test
// checkout), is sent a request and a message by the practice, lands on Home (/dashboard) in the portal's
// own layout, and visits every page through its nav, with the keyboard too; on a phone the nav
// folds behind Menu. axe finds nothing critical or serious on any page at 1280 and 390 px, and no page
// is wider than the phone.
const DEMO_PASSWORD = 'Demo-Practice-Pass-7';
const CLIENT = 'sarah@brightsparkelectrical.demo';

const PAGES = [
  { label: 'Home', path: '/dashboard', heading: 'Your dashboard' },
  { label: 'Documents', path: '/portal/documents', heading: 'Documents' },
  { label: 'Requests', path: '/portal/requests', heading: 'Requests' },
  { label: 'Messages', path: '/portal/messages', heading: 'Messages' },
  { label: 'Deadlines', path: '/portal/deadlines', heading: 'Deadlines' },
  { label: 'Billing', path: '/portal/billing', heading: 'Billing' },
  { label: 'Account', path: '/portal/account', heading: 'Account' },
] as const;

let server: E2EServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const portalNav = (p: Page) => p.getByRole('navigation', { name: 'Client portal' });
const h1 = (p: Page, name: string) => p.getByRole('heading', { level: 1, name, exact: true });

beforeAll(async () => {
  server = await startE2EServer({ SEED_DEMO: 'true', DEMO_PASSWORD });
  browser = await launchBrowser();
  context = await newContext(browser, server.baseUrl);
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

describe('the client portal', () => {
  it('a demo client signs in and lands on Home in the portal layout, not under the marketing menu', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/login');
    await page.getByLabel('Email').fill(CLIENT);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/dashboard/);
    // The sign-in toast outlives the move into the portal's own shell (the root's ToastHost): before, the
    // sign-in page took it away as the dashboard opened.
    await page.getByRole('navigation', { name: 'Client portal' }).waitFor();
    expect(await page.getByText('Login Successful').isVisible()).toBe(true);
    // The package first (letter, then the built-in test checkout), so every page has something to show.
    await page.goto('/checkout?package=Growth');
    await signTermsBeforePaying(page, 'Sarah Collins');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL(/\/payment-success\?session_id=/);
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await page.waitForURL('**/client-dashboard');
    // The practice asks for something and writes.
    const admin = await apiJson<{ session_token: string }>(server.baseUrl, '', 'POST', '/api/identity/admin/login', server.admin);
    const { rows } = await server.pool.query<{ id: string }>('select id from crm.clients where contact_email = $1', [CLIENT]);
    const clientId = rows[0]!.id;
    const dueOn = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    await waitUntil(() =>
      apiJson(server.baseUrl, admin.session_token, 'POST', '/api/requests', {
        client_id: clientId,
        title: 'Year-end records',
        due_on: dueOn,
        items: [{ kind: 'question', label: 'Any new loans this year?', document_type: null }],
      }).then(
        () => true,
        () => false,
      ),
    );
    await apiJson(server.baseUrl, admin.session_token, 'POST', `/api/requests/threads/${clientId}/messages`, {
      body: 'Welcome aboard: send us last year’s accounts when you can.',
    });
    await page.goto('/dashboard');
    await h1(page, 'Your dashboard').waitFor({ timeout: 30_000 });
    const nav = portalNav(page);
    expect(await nav.getByRole('link').allTextContents()).toEqual(PAGES.map((p) => p.label));
    expect(await nav.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
    // the practice's name in the header; the marketing site's nav is not there
    expect((await page.locator('.portal__brand').textContent())?.trim().length).toBeGreaterThan(1);
    expect(await page.locator('.public-layout__nav').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Who we help' }).count()).toBe(0);
    // Home: what is asked, the package, the next deadlines and the messages
    await page.locator('.requests-from-you').getByRole('heading', { name: 'Year-end records' }).waitFor({ timeout: 30_000 });
    await page.locator('dl.client-facts').getByText('Active', { exact: true }).waitFor();
    await page.getByText('Your next deadlines').waitFor();
    await page.getByText('1 unread message', { exact: true }).waitFor({ timeout: 30_000 });
  }, 180_000);

  it('every page through the nav, each marked as the current one', async () => {
    for (const p of [...PAGES.slice(1), PAGES[0]]) {
      await portalNav(page).getByRole('link', { name: p.label, exact: true }).click();
      await page.waitForURL(`**${p.path}`);
      await h1(page, p.heading).waitFor({ timeout: 30_000 });
      expect(await portalNav(page).getByRole('link', { name: p.label, exact: true }).getAttribute('aria-current')).toBe('page');
    }
  }, 120_000);

  it('with the keyboard: skip to content, then the nav by Tab and Enter', async () => {
    await page.goto('/portal/billing');
    await h1(page, 'Billing').waitFor({ timeout: 30_000 });
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Skip to content');
    // Tab on to the Deadlines link and open it with Enter
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate('document.activeElement && document.activeElement.textContent')) === 'Deadlines') break;
    }
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Deadlines');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/portal/deadlines');
    await h1(page, 'Deadlines').waitFor({ timeout: 30_000 });
  }, 60_000);

  it('on a phone the nav folds behind Menu, opens, leads to a page and closes again', async () => {
    await page.setViewportSize(PHONE);
    await page.goto('/dashboard');
    await h1(page, 'Your dashboard').waitFor({ timeout: 30_000 });
    const menu = page.getByRole('button', { name: /^Menu/ });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await portalNav(page).isVisible()).toBe(false);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await portalNav(page).getByRole('link', { name: 'Billing' }).click();
    await page.waitForURL('**/portal/billing');
    await h1(page, 'Billing').waitFor({ timeout: 30_000 });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await portalNav(page).isVisible()).toBe(false);
    expect(await documentWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);

  it('axe finds nothing critical or serious on any portal page at 1280 and 390 px; none is wider than the phone', async () => {
    const checks: PageCheck[] = [];
    for (const p of PAGES) checks.push(...(await auditPage(page, p.path, (pg) => h1(pg, p.heading).waitFor({ timeout: 30_000 }))));
    expect(checks).toHaveLength(PAGES.length * 2);
    expect(describeProblems(checks)).toEqual([]);
  }, 300_000);

  it('Log out from Account ends the session', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/portal/account');
    await h1(page, 'Account').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
    await page.getByRole('status').filter({ hasText: 'Logged out successfully' }).waitFor();
    await page.goto('/portal/documents');
    await page.waitForURL(/\/login\?redirect=/);
  }, 60_000);
});
