import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPage, DESKTOP, describeProblems, openSection, PHONE, settle } from './a11y.js';
import { launchBrowser, newContext, startE2EServer, type E2EServer } from './server.js';

// Issue 22: zero critical or serious axe violations (WCAG 2.1 A/AA) at 1280 and 390 px, and no
// page wider than the phone, on every page of the back office, with the demo practice's data.
let server: E2EServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const heading = (p: Page) => p.locator('main h1').first().waitFor({ timeout: 30_000 });

beforeAll(async () => {
  server = await startE2EServer({ SEED_DEMO: 'true' });
  browser = await launchBrowser();
  context = await newContext(browser, server.baseUrl);
  page = await context.newPage();
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(server.admin.username);
  await page.getByLabel('Password').fill(server.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/admin');
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

const PAGES = [
  '/admin',
  '/admin/clients',
  '/admin/leads',
  '/admin/staff',
  '/admin/upgrades',
  '/admin/tasks',
  '/admin/deadlines',
  '/admin/aml',
  '/admin/documents',
  '/admin/communications',
  '/admin/billing',
  '/admin/reports',
  '/admin/settings',
  '/admin/jobs',
  '/admin/roles',
  '/admin/notifications',
];

describe('accessibility and phone width: back office', () => {
  for (const path of PAGES) {
    it(
      path,
      async () => {
        const checks = await auditPage(page, path, heading);
        expect(describeProblems(checks)).toEqual([]);
      },
      90_000,
    );
  }

  // The control panel's sections (tabs on a wide screen, a select on a phone), each with its data.
  for (const section of ['Client Database', 'Client Files', 'AI Video', 'Settings']) {
    it(`/admin: ${section}`, async () => {
      const checks = await auditPage(page, '/admin', async (p) => {
        await heading(p);
        await openSection(p, section);
      });
      expect(describeProblems(checks)).toEqual([]);
    }, 90_000);
  }

  it('a dialog opens on its first field and gives focus back to its opener when Escape closes it', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/admin/clients');
    await heading(page);
    const opener = page.getByRole('button', { name: 'Add Client' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add Client' });
    await dialog.waitFor();
    await expect.poll(() => dialog.getByLabel('Company name').evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => opener.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  }, 60_000);

  // Convert was cut off on /admin/leads, at 1280 px too: the column is pinned and wide enough for its buttons.
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`a table's actions stay on screen (${size}): the column is pinned to its scroll box's right edge`, async () => {
      await page.setViewportSize(viewport);
      await page.goto('/admin/leads');
      await heading(page);
      await settle(page);
      const convert = page.getByRole('button', { name: /Convert to client/ }).first();
      await convert.waitFor();
      const [button, cell] = await Promise.all([convert.boundingBox(), convert.locator('xpath=ancestor::td[1]').boundingBox()]);
      expect(button).not.toBeNull();
      expect(cell).not.toBeNull();
      expect(button!.x).toBeGreaterThanOrEqual(cell!.x);
      expect(button!.x + button!.width).toBeLessThanOrEqual(cell!.x + cell!.width);
      expect(cell!.x + cell!.width).toBeLessThanOrEqual(viewport.width);
    }, 60_000);
  }

  it('on a phone the sidebar is a drawer over the page that closes on a choice', async () => {
    await page.setViewportSize(PHONE);
    await page.goto('/admin');
    await heading(page);
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    const drawer = page.getByRole('dialog').filter({ has: page.getByRole('link', { name: 'Billing' }) });
    await drawer.waitFor();
    await drawer.getByRole('link', { name: 'Billing' }).click();
    await page.waitForURL('**/admin/billing');
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(() => page.evaluate('document.scrollingElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
  }, 60_000);
});
