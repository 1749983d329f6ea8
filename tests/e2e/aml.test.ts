import { AML_MESSAGES } from '@countinghouse/proto';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeCompany, startFakeCompaniesHouse, type FakeCompaniesHouse } from '../../services/deadlines/test/fake-companies-house.js';
import { SAMPLES } from '../../services/documents/test/helpers.js';
import { apiJson, waitUntil } from './http.js';
import { launchBrowser, newContext, startE2EServer, type E2EServer } from './server.js';

// Issue 14's acceptance in Chromium: link a company on a local Companies House server, see its
// director and PSC in the AML file, upload evidence for each, answer the risk questions (cash-intensive:
// high risk, enhanced due diligence), the MLRO approves in the staff portal, the client leaves
// "Due diligence outstanding", and the audit trail lists each step.
let ch: FakeCompaniesHouse;
let server: E2EServer;
let browser: Browser;
let admin: BrowserContext;
let page: Page;
let clientId = '';
const CLIENT = 'Acme Widgets Ltd';
const MLRO = { email: 'morgan.lane@example.co.uk', password: 'morgan-lane-pass-1', first: 'Morgan', last: 'Lane' };
// What Companies House lists (acmeCompany): a director and a PSC; the resigned secretary is not to verify.
const DIRECTOR = 'WIDGET, Alice Mary';
const PSC = 'Mrs Alice Mary Widget';

beforeAll(async () => {
  ch = await startFakeCompaniesHouse('e2e-ch-key');
  ch.companies.set('09876543', acmeCompany());
  server = await startE2EServer({ COMPANIES_HOUSE_API_KEY: ch.apiKey, COMPANIES_HOUSE_BASE_URL: ch.url });
  const session = await apiJson<{ session_token: string }>(server.baseUrl, '', 'POST', '/api/identity/admin/login', server.admin);
  const token = session.session_token;
  const client = await apiJson<{ id: string }>(server.baseUrl, token, 'POST', '/api/crm/clients', {
    company_name: CLIENT,
    contact_email: 'accounts@acme-widgets.co.uk',
  });
  clientId = client.id;
  // The MLRO: a registered person granted manager (the staff portal) and mlro (the sign-off).
  const su = await fetch(`${server.baseUrl}/api/identity/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: MLRO.email, password: MLRO.password, first_name: MLRO.first, last_name: MLRO.last }),
  });
  expect(su.status, await su.text()).toBe(201);
  for (const role of ['manager', 'mlro'])
    await apiJson(server.baseUrl, token, 'POST', '/api/identity/roles/grants', { email: MLRO.email, role });
  // Both the deadlines (tax profile) and the AML service know the client before the browser starts.
  await waitUntil(async () => {
    const r = await fetch(`${server.baseUrl}/api/deadlines/clients/${clientId}`, { headers: { authorization: `Bearer ${token}` } });
    return r.status === 200;
  });
  await waitUntil(async () => {
    const r = await fetch(`${server.baseUrl}/api/aml/clients/${clientId}`, { headers: { authorization: `Bearer ${token}` } });
    return r.status === 200;
  });
  browser = await launchBrowser();
  admin = await newContext(browser, server.baseUrl);
  page = await admin.newPage();
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(server.admin.username);
  await page.getByLabel('Password').fill(server.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/admin');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await ch?.close();
});

const clientRow = (p: Page) => p.getByRole('row').filter({ hasText: CLIENT });
const drawer = (p: Page) => p.getByRole('dialog').filter({ hasText: `AML file: ${CLIENT}` });
const personRow = (d: Locator, name: string) => d.getByRole('row').filter({ has: d.page().getByText(name, { exact: true }) });

async function openFile(p: Page, status: string) {
  await p.getByRole('combobox', { name: 'Status' }).click();
  await p
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: new RegExp(`^${status}$`) })
    .click();
  await p.getByRole('button', { name: `AML file of ${CLIENT}` }).click();
  await drawer(p).waitFor();
  return drawer(p);
}

describe('AML due diligence (browser)', () => {
  it('a new client shows "Due diligence outstanding" in the clients list', async () => {
    await page.goto('/admin/clients');
    await clientRow(page).getByText(AML_MESSAGES.outstandingBadge).waitFor();
  });

  it('linking the company lists its director and PSC in the AML file', async () => {
    await page.getByRole('button', { name: `Deadlines for ${CLIENT}` }).click();
    const dialog = page.getByRole('dialog', { name: `Deadlines — ${CLIENT}` });
    await dialog.getByRole('tab', { name: 'Tax profile' }).click();
    await dialog.getByLabel('Company number').fill('09876543');
    await dialog.getByRole('button', { name: 'Save tax profile' }).click();
    await page.getByText('Tax profile saved').waitFor();
    await page.keyboard.press('Escape');
    // Companies House is read in the background (deadlines.company_refreshed reaches the AML service).
    await expect
      .poll(
        async () => (await server.pool.query(`select 1 from aml.audit where client_id = $1 and action = 'prefill'`, [clientId])).rowCount,
        {
          timeout: 20_000,
        },
      )
      .toBe(1);

    await page.goto('/admin/aml');
    await page.getByRole('heading', { level: 1, name: 'AML due diligence' }).waitFor();
    const d = await openFile(page, 'All statuses');
    await d.getByText('09876543', { exact: true }).waitFor();
    const director = personRow(d, DIRECTOR);
    const psc = personRow(d, PSC);
    await director.getByText('Director').waitFor();
    await psc.getByText('Person with significant control').waitFor();
    await psc.getByText('75% or more').waitFor();
    expect(await director.getByText('Companies House').count()).toBe(1);
    // The secretary resigned in 2020: not someone to verify.
    expect(await d.getByText('GEAR, Bob').count()).toBe(0);
    expect(await director.getByText('None', { exact: true }).count()).toBe(1);
  });

  it('evidence is uploaded for each person, checked by video', async () => {
    const d = drawer(page);
    await d.getByRole('combobox', { name: 'Verification method' }).click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
      .filter({ hasText: /^Video/ })
      .click();
    for (const [name, file] of [
      [DIRECTOR, 'alice-passport.pdf'],
      [PSC, 'alice-utility-bill.pdf'],
    ] as const) {
      const row = personRow(d, name);
      await row.locator('input[type=file]').setInputFiles({ name: file, mimeType: 'application/pdf', buffer: SAMPLES.pdf() });
      await row.getByText(file).waitFor({ timeout: 20_000 });
    }
    expect(await d.getByText('None', { exact: true }).count()).toBe(0);
  });

  it('one cash-intensive answer makes the client high risk with enhanced due diligence', async () => {
    const d = drawer(page);
    await d.getByLabel(/cash/i).check();
    await d.getByRole('button', { name: 'Save risk answers' }).click();
    await page.getByText('Risk assessment saved').first().waitFor();
    await d.getByText('High risk: Enhanced due diligence, review every 1 year').waitFor();
    await d.getByRole('button', { name: 'Send for MLRO approval' }).click();
    await d.getByText('awaiting approval', { exact: false }).first().waitFor();
    // The administrator manages files but is not the MLRO: no sign-off here.
    expect(await d.getByText('MLRO sign-off').count()).toBe(0);
  });

  it('the MLRO approves in the staff portal; the client no longer shows "Due diligence outstanding"', async () => {
    const mlro = await newContext(browser, server.baseUrl);
    const p = await mlro.newPage();
    await p.goto('/staff-login');
    await p.getByLabel('Email').fill(MLRO.email);
    await p.getByLabel('Password').fill(MLRO.password);
    await p.getByLabel('Password').press('Enter');
    await p.waitForURL('**/staff/dashboard');
    // The staff portal's client list shows the badge too.
    await clientRow(p).getByText(AML_MESSAGES.outstandingBadge).waitFor();
    await p.getByRole('tab', { name: 'AML' }).click();
    const d = await openFile(p, 'Awaiting approval');
    await d.getByText('MLRO sign-off').waitFor();
    await d.getByLabel('Approval note').fill('Cash takings explained by the till reports; passport seen on video.');
    await d.getByRole('button', { name: 'Approve' }).click();
    await p.getByText('Due diligence approved').first().waitFor();
    await d.getByText('Approved', { exact: true }).first().waitFor();
    await mlro.close();

    await page.goto('/admin/clients');
    const row = clientRow(page);
    await row.waitFor();
    await expect.poll(() => row.getByText(AML_MESSAGES.outstandingBadge).count(), { timeout: 10_000 }).toBe(0);
    // The control panel counts no client outstanding; its link opens /admin/aml filtered.
    await page.goto('/admin');
    const card = page.getByTestId('aml-outstanding-card');
    await expect.poll(async () => (await card.textContent()) ?? '', { timeout: 10_000 }).toMatch(/Due diligence outstanding\s*0\s*clients/);
    await card.getByRole('link', { name: AML_MESSAGES.outstandingBadge }).click();
    await page.waitForURL('**/admin/aml?status=outstanding');
    await page.getByText('No client has due diligence outstanding').waitFor();
  });

  it('the audit trail lists each step: prefill, uploads, risk, submission, approval, views', async () => {
    await page.goto('/admin/aml?status=approved');
    await page.getByRole('button', { name: `AML file of ${CLIENT}` }).click();
    const d = drawer(page);
    const step = (action: string) => d.locator(`[data-audit-action="${action}"]`);
    await step('approve').first().waitFor();
    expect(await step('prefill').count()).toBe(1);
    expect(await step('upload').count()).toBe(2);
    expect(await step('submit').count()).toBe(1);
    expect(await step('approve').count()).toBe(1);
    expect(await step('view').count()).toBeGreaterThanOrEqual(2);
    expect(await step('approve').textContent()).toContain('Morgan Lane');
    expect(await step('approve').textContent()).toContain('Enhanced due diligence'.toLowerCase());
    expect(await step('change').filter({ hasText: /risk/i }).count()).toBeGreaterThanOrEqual(1);
    for (const name of [DIRECTOR, PSC]) expect(await step('upload').filter({ hasText: name }).count()).toBe(1);
  });
});
