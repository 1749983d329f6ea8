import {
  ADMIN_AUTH_ROUTES,
  CRM_ROUTES,
  DOCUMENTS_ROUTES,
  defaultReportRange,
  londonToday,
  type Client,
  type DirectoryList,
} from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiJson, waitUntil } from './http.js';
import { launchBrowser, newContext, startE2EServer, type E2EServer } from './server.js';

// Issue 9's reports in Chromium against the all-in-one server: data arranged through each owning
// service (crm and documents through their APIs; billing's history straight into its own tables,
// since no API backdates a subscription), then /admin/reports as the admin draws every chart from it
// and one table downloads as CSV.

let server: E2EServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';
const range = defaultReportRange();

const api = <T>(method: string, path: string, body?: unknown): Promise<T> => apiJson<T>(server.baseUrl, token, method, path, body);

async function upload(clientId: string, documentType: string, name: string) {
  const form = new FormData();
  form.set('client_id', clientId);
  form.set('document_type', documentType);
  form.set('files', new Blob([`date,amount\n${londonToday()},12.00\n`], { type: 'text/csv' }), name);
  const res = await fetch(`${server.baseUrl}${DOCUMENTS_ROUTES.upload}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
}

/** A subscription as billing would have stored it, started `monthsAgo` months ago. */
async function subscription(email: string, pkg: string, fee: number, status: string, monthsAgo: number) {
  const id = randomUUID();
  await server.pool.query(
    `insert into billing.subscriptions (id, user_id, email, package_name, monthly_fee, status, provider, checkout_session_id, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, 'test', $7, now() - make_interval(months => $8), now())`,
    [id, randomUUID(), email, pkg, fee, status, `cs_e2e_${id.slice(0, 8)}`, monthsAgo],
  );
  return id;
}

const card = (title: string): Locator =>
  page.locator('.ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: title }) });

beforeAll(async () => {
  server = await startE2EServer();
  token = (await api<{ session_token: string }>('POST', ADMIN_AUTH_ROUTES.login, server.admin)).session_token;

  // crm: three clients registered today and three leads.
  const acme = await api<Client>('POST', CRM_ROUTES.clients, {
    company_name: 'Acme Bakery Ltd',
    contact_email: 'owner@acme.example',
    package_name: 'Growth',
    subscription_status: 'active',
  });
  await api('POST', CRM_ROUTES.clients, {
    company_name: 'Brook Plumbing',
    contact_email: 'owner@brook.example',
    package_name: 'Growth',
    subscription_status: 'pending',
  });
  await api('POST', CRM_ROUTES.clients, {
    company_name: 'Cedar Joinery',
    contact_email: 'owner@cedar.example',
    package_name: 'Scale',
    subscription_status: 'active',
  });
  await api('POST', CRM_ROUTES.leads, { name: 'Dana Web', email: 'dana@prospects.example', source: 'Website', stage: 'won' });
  await api('POST', CRM_ROUTES.leads, { name: 'Eli Web', email: 'eli@prospects.example', source: 'Website' });
  await api('POST', CRM_ROUTES.leads, { name: 'Fay Ref', email: 'fay@prospects.example', source: 'Referral', stage: 'qualified' });

  // documents: three uploads for Acme once its directory entry has arrived (crm's event).
  await waitUntil(async () =>
    (await api<DirectoryList>('GET', `${DOCUMENTS_ROUTES.clients}?search=acme`)).clients.some((c) => c.client_id === acme.id),
  );
  await upload(acme.id, 'vat', 'vat-q1.csv');
  await upload(acme.id, 'vat', 'vat-q2.csv');
  await upload(acme.id, 'payroll', 'payroll-march.csv');

  // billing: one active subscription for three months, one overdue for two, one failed payment today.
  await subscription('owner@acme.example', 'Growth', 100, 'active', 3);
  const cedar = await subscription('owner@cedar.example', 'Scale', 150, 'overdue', 2);
  await server.pool.query(
    `insert into billing.payments (subscription_id, amount, status, provider_invoice_id) values ($1, 150, 'failed', 'in_e2e_1')`,
    [cedar],
  );

  browser = await launchBrowser();
  context = await newContext(browser, server.baseUrl, { acceptDownloads: true });
  page = await context.newPage();
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(server.admin.username);
  await page.getByLabel('Password').fill(server.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await waitUntil(() => /\/admin$/.test(page.url()));
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

describe('Reports in the admin panel', () => {
  it('draws every chart from the seeded data over the last 12 months', async () => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Reports', exact: true }).click();
    await waitUntil(() => page.url().endsWith('/admin/reports'));
    await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();

    const mrr = page.getByRole('img', { name: /^Subscription fees at each month end: / });
    await mrr.waitFor();
    const mrrLabel = (await mrr.getAttribute('aria-label'))!;
    // Twelve months; the last (today) counts both live subscriptions, three months back only Acme's.
    expect(await mrr.locator('circle').count()).toBe(12);
    expect(mrrLabel).toMatch(/£250\.00$/);
    expect(mrrLabel.split(', ').at(-4)).toMatch(/£100\.00$/);
    // the one monthly revenue (issue 22): active subscriptions' fees now, overdue apart
    await page.getByText('Active subscriptions now; £150.00 overdue apart').waitFor();

    const packages = page.getByRole('img', { name: /^Clients registered by package: / });
    expect(await packages.getAttribute('aria-label')).toContain('Growth 2, Scale 1');
    expect(await packages.locator('rect').count()).toBe(3); // Growth active, Growth pending, Scale active
    expect(
      await page.getByRole('img', { name: /^Clients registered by status: Active 2, Pending 1, Cancelled 0, Overdue 0$/ }).count(),
    ).toBe(1);

    await page
      .getByRole('img', {
        name: /^Leads by stage, in pipeline order: New Enquiry 1, Qualified 1, Proposal Sent 0, Negotiation 0, Won 1, Lost 0$/,
      })
      .waitFor();
    await page.getByRole('img', { name: /Website 2 leads, 1 won \(50\.0%\), Referral 1 leads, 0 won \(0\.0%\)$/ }).waitFor();
    await card('Lead funnel by stage').getByText('1 · 33.3%').first().waitFor();

    const weeks = page.getByRole('img', { name: /^Documents uploaded per week by type, 3 in all: VAT Returns 2, .*Payroll 1/ });
    await weeks.waitFor();
    expect(await weeks.locator('rect').count()).toBe(2); // this week: a VAT segment and a payroll one

    const failed = card('Failed payments');
    await failed.getByText('owner@cedar.example').waitFor();
    await failed.getByText('in_e2e_1').waitFor();
  });

  it('downloads the clients-by-package table as CSV', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV: Clients by package' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`countinghouse-clients-by-package-${range.from}-to-${range.to}.csv`);
    const bytes = readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe(
      [
        'Package,Active,Pending,Cancelled,Overdue,Total,Monthly fees (GBP)',
        'Sole Trader Package,0,0,0,0,0,0.00',
        'Partnership Package,0,0,0,0,0,0.00',
        'Limited Company Starter,0,0,0,0,0,0.00',
        'Growth,1,1,0,0,2,200.00',
        'Scale,1,0,0,0,1,150.00',
        'Professional,0,0,0,0,0,0.00',
        'Enterprise,0,0,0,0,0,0.00',
        '',
      ].join('\r\n'),
    );
  });

  it('a preset of the date picker sets the range in the address', async () => {
    await page.locator('.ant-picker-range').click();
    await page.locator('.ant-picker-presets').getByText('Last year', { exact: true }).click();
    const year = Number(londonToday().slice(0, 4)) - 1;
    await waitUntil(() => page.url().endsWith(`/admin/reports?from=${year}-01-01&to=${year}-12-31`));
    await page.getByText(`01 Jan ${year} to 31 Dec ${year}`).waitFor();
  });

  it('a chosen range goes into the address and every report follows it', async () => {
    const from = `${Number(range.to.slice(0, 4)) - 3}-01-01`;
    const to = `${Number(range.to.slice(0, 4)) - 3}-12-31`;
    await page.goto(`/admin/reports?from=${from}&to=${to}`);
    await page.getByText('No clients registered in this range').first().waitFor();
    await page.getByText('No leads in this range').first().waitFor();
    await page.getByText('No documents uploaded in this range').waitFor();
    await page.getByText('No failed payments in this range').waitFor();
    // Three years ago no subscription had started: twelve months at £0.00.
    const mrr = page.getByRole('img', { name: /^Subscription fees at each month end: / });
    expect((await mrr.getAttribute('aria-label'))!.match(/£0\.00/g)).toHaveLength(12);
  });
});
