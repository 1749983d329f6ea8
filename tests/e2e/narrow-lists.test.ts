import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSection, PHONE, settle } from './a11y.js';
import { apiJson, waitUntil } from './http.js';
import { launchBrowser, newContext, startE2EServer, type E2EServer } from './server.js';

// Issue 26: "at 390 px every list shows the client's name first". Each list of the back office with a
// client in it, at 390 px, with the demo practice's data: its first column is the client, and a
// screenshot of it is kept (E2E_SHOTS_DIR, else a folder under the system's temporary directory).

const MANAGER = { email: 'nina.narrow@example.co.uk', password: 'nina-narrow-pass-1', first: 'Nina', last: 'Narrow' };
const SHOTS = process.env.E2E_SHOTS_DIR ?? join(tmpdir(), 'ch-narrow-lists');

let server: E2EServer;
let browser: Browser;
let admin: BrowserContext;
let staff: BrowserContext;
let adminPage: Page;
let staffPage: Page;

/** The visible headers of a table, in order (antd's expand and selection columns have none). */
async function headers(table: Locator): Promise<string[]> {
  await table.locator('thead th').first().waitFor({ timeout: 30_000 });
  const all = await table.locator('thead th').allInnerTexts();
  return all.map((t) => t.trim()).filter(Boolean);
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}-390.png`) });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startE2EServer({ SEED_DEMO: 'true' });
  const token = (await apiJson<{ session_token: string }>(server.baseUrl, '', 'POST', '/api/identity/admin/login', server.admin))
    .session_token;
  const su = await fetch(`${server.baseUrl}/api/identity/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: MANAGER.email, password: MANAGER.password, first_name: MANAGER.first, last_name: MANAGER.last }),
  });
  expect(su.status, await su.text()).toBe(201);
  await apiJson(server.baseUrl, token, 'POST', '/api/identity/roles/grants', { email: MANAGER.email, role: 'manager' });
  // One outstanding request, so the Requests page has its table.
  // (the requests service learns the demo's clients from crm's events: it may need a moment)
  const clients = await apiJson<{ clients: Array<{ id: string }> }>(server.baseUrl, token, 'GET', '/api/crm/clients?page_size=1');
  await waitUntil(() =>
    apiJson(server.baseUrl, token, 'POST', '/api/requests', {
      client_id: clients.clients[0]!.id,
      title: 'Bank statements for 2025-26',
      due_on: new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10),
      items: [{ kind: 'document', label: 'Bank statements', document_type: 'bank_statements' }],
    }).then(
      () => true,
      () => false,
    ),
  );

  browser = await launchBrowser();
  admin = await newContext(browser, server.baseUrl, { viewport: PHONE });
  adminPage = await admin.newPage();
  await adminPage.goto('/admin/login');
  await adminPage.getByLabel('Username').fill(server.admin.username);
  await adminPage.getByLabel('Password').fill(server.admin.password);
  await adminPage.getByRole('button', { name: 'Sign in' }).click();
  await adminPage.waitForURL('**/admin');

  staff = await newContext(browser, server.baseUrl, { viewport: PHONE });
  staffPage = await staff.newPage();
  await staffPage.goto('/staff-login');
  await staffPage.getByLabel('Email').fill(MANAGER.email);
  await staffPage.getByLabel('Password').fill(MANAGER.password);
  await staffPage.getByLabel('Password').press('Enter');
  await staffPage.waitForURL('**/staff/dashboard');
}, 180_000);

afterAll(async () => {
  await admin?.close();
  await staff?.close();
  await browser?.close();
  await server?.close();
});

describe("390 px: every list shows the client's name first", () => {
  const ADMIN_LISTS: Array<{ path: string; first: string }> = [
    { path: '/admin/clients', first: 'Company' },
    { path: '/admin/deadlines', first: 'Client' },
    { path: '/admin/aml', first: 'Client' },
    { path: '/admin/tasks', first: 'Client' },
    { path: '/admin/identity-verification', first: 'Client' },
  ];
  for (const { path, first } of ADMIN_LISTS) {
    it(
      path,
      async () => {
        await adminPage.goto(path);
        await adminPage.locator('main h1').first().waitFor({ timeout: 30_000 });
        await settle(adminPage);
        const cols = await headers(adminPage.locator('main table').first());
        await shot(adminPage, path.replaceAll('/', '_').slice(1));
        expect(cols[0], cols.join(' | ')).toBe(first);
      },
      90_000,
    );
  }

  it('the Requests page (staff portal)', async () => {
    await staffPage.getByRole('heading', { name: 'Staff Portal' }).waitFor({ timeout: 30_000 });
    await openSection(staffPage, 'Requests');
    const card = staffPage.locator('.ant-card', { has: staffPage.getByRole('heading', { name: 'Outstanding requests' }) });
    await card.locator('table').first().waitFor({ timeout: 30_000 });
    await settle(staffPage);
    const cols = await headers(card.locator('table').first());
    await shot(staffPage, 'staff_requests');
    expect(cols[0], cols.join(' | ')).toBe('Client');
  }, 90_000);

  it('My work (the workspace): each item starts with its client', async () => {
    await staffPage.goto('/work');
    await staffPage.getByRole('heading', { name: 'My work', level: 1 }).waitFor({ timeout: 30_000 });
    await settle(staffPage);
    await shot(staffPage, 'work');
    const firstItem = staffPage.locator('.my-work .ant-list-item').first();
    if (await firstItem.count()) await expect(firstItem.locator('.my-work__client').first().isVisible()).resolves.toBe(true);
  }, 90_000);
});
