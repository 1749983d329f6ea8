import { CLIENT_PROFILE_MESSAGES, MESSAGES, SIGNUP_MESSAGES, findPackage } from '@countinghouse/proto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLES } from '../../services/documents/test/helpers.js';
import { apiJson } from './http.js';
import { launchBrowser, newContext, startE2EServer, type E2EServer } from './server.js';

// Issue 6's acceptance in Chromium against the all-in-one server (no Stripe: the built-in test
// checkout): home → choose Growth → sign up → sign in (e-mail filled) → engagement letter signed before
// paying (issue 33) → test checkout → payment success with the right price
// and features → client dashboard showing Active and Growth → business profile completed → the admin
// sees the client, under its own name, at £100.00/month.

const CLIENT = { email: 'grace.growth@example.co.uk', password: 'grace-growth-pass-1' };
const GROWTH = findPackage('Growth')!;

let server: E2EServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

/** The input of a labelled form field (antd also labels the password's show/hide control). */
const field = (label: string) => page.getByLabel(label, { exact: true }).and(page.locator('input'));

beforeAll(async () => {
  server = await startE2EServer();
  browser = await launchBrowser();
  context = await newContext(browser, server.baseUrl, { acceptDownloads: true });
  page = await context.newPage();
  // Issue 33: the practice is VAT-registered, so Growth is £100.00 + £20.00 VAT = £120.00.
  const admin = await apiJson<{ session_token: string }>(server.baseUrl, '', 'POST', '/api/identity/admin/login', server.admin);
  await apiJson(server.baseUrl, admin.session_token, 'PUT', '/api/billing/vat', {
    vat_number: 'GB 123 4567 89',
    rate: 20,
    address: '1 Counting Lane, London, EC1A 1AA',
  });
});

afterAll(async () => {
  // (the practice is not VAT-registered again: in the browser-distributed project the files after this one
  // share its product, and their clients pay £100.00)
  if (server) {
    const admin = await apiJson<{ session_token: string }>(server.baseUrl, '', 'POST', '/api/identity/admin/login', server.admin);
    await apiJson(server.baseUrl, admin.session_token, 'PUT', '/api/billing/vat', { vat_number: null, rate: 0, address: '' });
  }
  await context?.close();
  await browser?.close();
  await server?.close();
});

describe('The client journey', () => {
  it('home → packages → choose Growth → sign up and sign in → test checkout', async () => {
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: /One fixed monthly fee/ }).waitFor();
    await page.getByRole('link', { name: 'See packages and prices' }).click();
    await page.waitForURL('**/package-selection');
    const growth = page.getByRole('article', { name: 'Growth' });
    expect(await growth.getByText('£100.00').textContent()).toBe('£100.00');
    await growth.getByText('+ VAT').waitFor();
    await growth.getByRole('link', { name: 'Choose Growth' }).click();

    // Not signed in: the checkout sends the visitor to sign up first.
    await page.waitForURL('**/signup?redirect=*');
    // Issue 33: the chosen package is shown; a limited company must give its name.
    await page.getByText('You are signing up for the Growth package.').waitFor();
    await page.locator('label').filter({ hasText: 'Limited company' }).click();
    expect(await page.getByRole('radio', { name: 'Limited company' }).isChecked()).toBe(true);
    await field('Email').fill(CLIENT.email);
    await field('Password').fill(CLIENT.password);
    await field('Confirm password').fill(CLIENT.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(SIGNUP_MESSAGES.companyNameRequired).waitFor();
    await field('Company name').fill('Grace Growth Ltd');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(MESSAGES.accountCreated).first().waitFor();
    await page.waitForURL('**/login**');
    // Both forms have Email and Password fields: wait for the sign-in page itself before typing.
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    // Issue 33: the e-mail just used is filled in.
    expect(await field('Email').inputValue()).toBe(CLIENT.email);
    await field('Password').fill(CLIENT.password);
    await page.getByRole('button', { name: /log in|sign in/i }).click();

    // Back to the chosen package through ?redirect; terms before payment (issue 33): the letter first.
    await expect.poll(() => page.url(), { timeout: 30_000 }).toMatch(/\/terms\?package=Growth/);
    await page.getByRole('heading', { level: 1, name: 'Your engagement letter for the Growth package' }).waitFor();
    expect(await page.getByLabel('Letter text').textContent()).toContain('SCHEDULE OF SERVICES: Growth');
    await page.getByLabel('Type your full name to sign').fill('Grace Hopper');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Sign and continue to payment' }).click();
    await expect.poll(() => page.url(), { timeout: 30_000 }).toMatch(/\/checkout\/test\?session_id=/);
    await page.getByText('no card is charged').waitFor();
    expect(await page.getByText('£100.00 per month').count()).toBe(1);
    await page.getByText('£100.00 + £20.00 VAT = £120.00').waitFor();
  });

  it('pays on the test checkout and sees the payment success page with the price and features', async () => {
    await page.getByRole('button', { name: /^Pay £120\.00/ }).click();
    await page.waitForURL('**/payment-success?session_id=*');
    await page.getByRole('heading', { name: 'Payment successful! Welcome aboard.' }).waitFor();
    await page.getByText(MESSAGES.paymentSuccessful).waitFor();
    await page.getByText('£100.00 per month').waitFor();
    for (const feature of GROWTH.features) await page.getByText(feature, { exact: true }).waitFor();
    await page.getByText('Meet your dedicated accountant').waitFor();
    await page.getByText(/assigned within 24 hours/).waitFor();

    // Refreshing replays the verification (the admin's list below must still hold one subscription).
    await page.reload();
    await page.getByRole('heading', { name: 'Payment successful! Welcome aboard.' }).waitFor();
  });

  it('the client dashboard shows Active and Growth', async () => {
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await page.waitForURL('**/client-dashboard');
    await page.getByRole('heading', { level: 1, name: 'Your dashboard' }).waitFor();
    const facts = page.locator('dl.client-facts');
    await facts.getByText('Active', { exact: true }).waitFor();
    await facts.getByText('Growth', { exact: true }).waitFor();
    await facts.getByText('£100.00/month').waitFor();
    // Signed before paying, once: the dashboard does not ask again (issue 33).
    const letter = page.locator('li').filter({ hasText: 'Sign your engagement letter' });
    await letter.getByText(/^Signed \d{2} \w{3} \d{4}$/).waitFor({ timeout: 30_000 });
    expect(await letter.getByRole('button', { name: 'Sign your engagement letter' }).count()).toBe(0);
    // The VAT invoice of the payment (issue 33), as a PDF with the practice's VAT number, under Billing
    // in the client portal (issue 33, item 4).
    await page.getByRole('navigation', { name: 'Client portal' }).getByRole('link', { name: 'Billing' }).click();
    await page.waitForURL('**/portal/billing');
    const invoices = page.locator('.ant-card').filter({ hasText: 'Your invoices' });
    await invoices.getByText(/INV-\d{6}/).waitFor();
    await invoices.getByText('£100.00 + £20.00 VAT = £120.00').waitFor();
    await invoices.getByText('(VAT no. GB123456789)').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), invoices.getByRole('button', { name: /^PDF of INV-/ }).click()]);
    expect(download.suggestedFilename()).toMatch(/^INV-\d{6}\.pdf$/);
  });

  it("the client's own documents: no practice figures or Client column; a file dropped on the uploader is uploaded", async () => {
    await page.getByRole('navigation', { name: 'Client portal' }).getByRole('link', { name: 'Documents' }).click();
    await page.waitForURL('**/portal/documents');
    const docs = page.locator('.ant-card').filter({ hasText: 'Your documents' });
    await docs.locator('.documents-view--client').waitFor();
    expect(await docs.locator('.ant-statistic').count()).toBe(0);
    expect(await docs.getByRole('columnheader', { name: 'Client', exact: true }).count()).toBe(0);
    await docs.getByRole('combobox', { name: 'Document type for upload' }).click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').first().click();
    const name = 'bank-statement-october-2026-current-account.pdf';
    const dataTransfer = await page.evaluateHandle(
      ({ bytes, name }) => {
        // (runs in the page: the test's own types have no DOM)
        const Dt = (globalThis as unknown as { DataTransfer: new () => { items: { add(f: File): void } } }).DataTransfer;
        const dt = new Dt();
        dt.items.add(new File([new Uint8Array(bytes)], name, { type: 'application/pdf' }));
        return dt;
      },
      { bytes: [...SAMPLES.pdf()], name },
    );
    await docs.getByTestId('documents-drop-zone').dispatchEvent('drop', { dataTransfer });
    await docs.getByTestId('upload-item').filter({ hasText: name }).waitFor();
    await docs.getByRole('button', { name: /Upload 1 file$/ }).click();
    await page.getByText(MESSAGES.uploadSuccessfulTitle).first().waitFor({ timeout: 30_000 });
    // Listed under its whole name, at phone width too (on two lines rather than cut).
    await page.setViewportSize({ width: 390, height: 800 });
    const cell = docs.locator('.documents-view__filename').filter({ hasText: name });
    await cell.waitFor();
    expect(await cell.textContent()).toBe(name);
    expect(await cell.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('the client completes the business profile: the checklist ticks and crm holds the details', async () => {
    await page.getByRole('navigation', { name: 'Client portal' }).getByRole('link', { name: 'Home' }).click();
    await page.waitForURL('**/dashboard');
    const item = page.locator('li').filter({ hasText: 'Complete your business profile' });
    await item.getByText('To do').waitFor();
    await item.getByRole('button', { name: 'Complete business profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your business profile' });
    await dialog.waitFor();
    // The company name given at sign-up is already there (issue 33).
    expect(await dialog.getByLabel('Business name').inputValue()).toBe('Grace Growth Ltd');
    await dialog.getByLabel('Business name').fill('Grace Growth Ltd');
    await dialog.getByLabel('Contact name').fill('Grace Hopper');
    await dialog.getByLabel('Phone').fill('x');
    await dialog.getByRole('button', { name: 'Save profile' }).click();
    await dialog.getByText(CLIENT_PROFILE_MESSAGES.phoneInvalid).waitFor();
    await dialog.getByLabel('Phone').fill('020 7946 0123');
    await dialog.getByLabel('Number of employees').fill('4');
    await dialog.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText(CLIENT_PROFILE_MESSAGES.saved).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await item.getByText('Done').waitFor();
    await item.getByText(/Grace Growth Ltd, limited company, 4 employees; contact Grace Hopper, 020 7946 0123/).waitFor();

    const { rows } = await server.pool.query(
      `select company_name, contact_name, contact_phone, employees_count, onboarding_completed, package_name, subscription_status
         from crm.clients where contact_email = $1`,
      [CLIENT.email],
    );
    expect(rows).toEqual([
      {
        company_name: 'Grace Growth Ltd',
        contact_name: 'Grace Hopper',
        contact_phone: '020 7946 0123',
        employees_count: 4,
        onboarding_completed: true,
        package_name: 'Growth',
        subscription_status: 'active',
      },
    ]);
  });

  it('the admin sees the new client at £100.00/month, and the billing page counts it', async () => {
    const admin = await newContext(browser, server.baseUrl);
    const a = await admin.newPage();
    try {
      await a.goto('/admin/login');
      await a.getByLabel('Username').fill(server.admin.username);
      await a.getByLabel('Password').fill(server.admin.password);
      await a.getByRole('button', { name: 'Sign in' }).click();
      await a.waitForURL('**/admin');
      await a.getByRole('tab', { name: 'Client Database' }).click();
      // The business profile the client completed is what the practice sees: the client's own card (other
      // clients' cards sit beside it in the browser-distributed project's shared product).
      const card = a.getByRole('article', { name: 'Grace Growth Ltd' });
      await card.waitFor();
      await card.getByText(CLIENT.email).waitFor();
      await card.getByText('£100.00/month').waitFor();
      await card.getByText('Growth').first().waitFor();

      await a.goto('/admin/billing');
      await a.getByRole('heading', { name: 'Billing' }).waitFor();
      await a.getByRole('cell', { name: CLIENT.email }).waitFor();
      expect(await a.getByRole('cell', { name: CLIENT.email }).count()).toBe(1);
      await a.locator('.ant-statistic').filter({ hasText: 'Monthly Revenue' }).getByText('£100.00').waitFor();
    } finally {
      await admin.close();
    }
  });
});
