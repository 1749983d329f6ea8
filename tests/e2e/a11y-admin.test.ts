import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPage, describeProblems } from './a11y.js';
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
  '/admin/documents',
  '/admin/communications',
  '/admin/billing',
  '/admin/reports',
  '/admin/settings',
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
});
