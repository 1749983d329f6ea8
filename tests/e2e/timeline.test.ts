import { ENGAGEMENT_MESSAGES, MESSAGES } from '@countinghouse/proto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLES } from '../../services/documents/test/helpers.js';
import { signTermsBeforePaying } from './terms.js';
import { E2E_SLOW_HOOK_MS, launchBrowser, newContext, startE2EServer, type E2EServer } from './server.js';

// Issue 26's Timeline acceptance, in both run modes (tests/e2e/distributed-order.ts): a client who
// signed up, paid, signed the engagement letter and had a document uploaded shows those four events
// on the client record's Timeline, newest first, built by crm from the services' events.

const CLIENT = { email: 'tilly.timeline@example.co.uk', password: 'tilly-timeline-pass-1' };
const SIGNER = 'Tilly Timeline';

let server: E2EServer;
let browser: Browser;
let client: BrowserContext;
let admin: BrowserContext;
let page: Page;
let clientId: string;

const field = (p: Page, label: string) => p.getByLabel(label, { exact: true }).and(p.locator('input'));

beforeAll(async () => {
  server = await startE2EServer();
  browser = await launchBrowser();
  client = await newContext(browser, server.baseUrl);
  page = await client.newPage();
}, E2E_SLOW_HOOK_MS);

afterAll(async () => {
  await client?.close();
  await admin?.close();
  await browser?.close();
  await server?.close();
});

describe('The client Timeline (issue 26)', () => {
  it('a client signs up, signs the engagement letter and pays', async () => {
    await page.goto('/package-selection');
    await page.getByRole('article', { name: 'Growth' }).getByRole('link', { name: 'Choose Growth' }).click();
    await page.waitForURL('**/signup?redirect=*');
    await field(page, 'Email').fill(CLIENT.email);
    await field(page, 'Password').fill(CLIENT.password);
    await field(page, 'Confirm password').fill(CLIENT.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(MESSAGES.accountCreated).first().waitFor();
    await page.waitForURL('**/login**');
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await field(page, 'Email').fill(CLIENT.email);
    await field(page, 'Password').fill(CLIENT.password);
    await page.getByRole('button', { name: /log in|sign in/i }).click();
    // Terms before payment (issue 33): the letter is signed before the checkout.
    await signTermsBeforePaying(page, SIGNER);
    await page.getByRole('button', { name: /^Pay £100\.00/ }).click();
    await page.waitForURL('**/payment-success?session_id=*');
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await page.waitForURL('**/client-dashboard');
    const item = page.locator('li').filter({ hasText: ENGAGEMENT_MESSAGES.checklistItem });
    await item.getByText(/^Signed \d{2} \w{3} \d{4}$/).waitFor({ timeout: 30_000 });

    const { rows } = await server.pool.query<{ id: string }>('select id from crm.clients where contact_email = $1', [CLIENT.email]);
    expect(rows).toHaveLength(1);
    clientId = rows[0]!.id;
  });

  it('the admin uploads a document on the client record', async () => {
    admin = await newContext(browser, server.baseUrl);
    page = await admin.newPage();
    await page.goto('/admin/login');
    await page.getByLabel('Username').fill(server.admin.username);
    await page.getByLabel('Password').fill(server.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/admin');
    await page.goto(`/admin/clients/${clientId}`);
    await page.getByRole('tab', { name: 'Documents' }).click();
    const uploader = page.locator('.documents-uploader');
    await uploader.getByRole('combobox', { name: 'Document type for upload' }).click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').first().click();
    await uploader
      .getByTestId('documents-file-input')
      .setInputFiles({ name: 'bank-statement.pdf', mimeType: 'application/pdf', buffer: SAMPLES.pdf() });
    await uploader.locator('button.ant-btn-primary').click();
    await page.getByText(MESSAGES.uploadSuccessfulTitle).first().waitFor({ timeout: 30_000 });
  });

  it('the Timeline lists signed up, letter signed, paid and document uploaded, newest first', async () => {
    const wanted = ['document_uploaded', 'payment', 'letter_signed', 'signed_up'];
    const order = async () => {
      await page.goto(`/admin/clients/${clientId}`);
      await page.getByRole('tab', { name: 'Timeline' }).click();
      await page.locator('.client-timeline, .ant-typography').first().waitFor();
      const kinds = await page.locator('[data-timeline-kind]').evaluateAll((els) => els.map((e) => e.getAttribute('data-timeline-kind')));
      const ours = kinds.filter((k): k is string => k !== null && wanted.includes(k));
      return ours.filter((k, i) => ours.indexOf(k) === i);
    };
    // The read model follows the events (the outbox relay; Kafka in the distributed product).
    await expect.poll(order, { timeout: 60_000, interval: 1000 }).toEqual(wanted);
    await page.screenshot({ path: `/tmp/e2e-timeline-${server.mode}.png`, fullPage: true });
  });
});
