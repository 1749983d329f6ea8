import { ENGAGEMENT_MESSAGES, MESSAGES } from '@countinghouse/proto';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfTextLines } from '../../services/engagement/test/pdf-text.js';
import { launchBrowser, newContext, startE2EServer, type E2EServer } from './server.js';

// Issue 15's acceptance in Chromium: a new client pays for Growth, sees "Sign your engagement letter",
// signs it and downloads a PDF whose text holds the package, £100.00 per month and the signer's name,
// and whose certificate states the SHA-256 of the letter's text as stored; moving to Scale asks again
// and the first signed PDF is still listed.

const CLIENT = { email: 'ella.engaged@example.co.uk', password: 'ella-engaged-pass-1' };
const SIGNER = 'Ella Marie Engaged';

let server: E2EServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const field = (label: string) => page.getByLabel(label, { exact: true }).and(page.locator('input'));
const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

beforeAll(async () => {
  server = await startE2EServer();
  browser = await launchBrowser();
  context = await newContext(browser, server.baseUrl, { acceptDownloads: true });
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

describe('Engagement letter signed online', () => {
  it('a new client chooses Growth and, before paying, is asked to sign the letter (issue 33)', async () => {
    await page.goto('/package-selection');
    await page.getByRole('article', { name: 'Growth' }).getByRole('link', { name: 'Choose Growth' }).click();
    await page.waitForURL('**/signup?redirect=*');
    await field('Email').fill(CLIENT.email);
    await field('Password').fill(CLIENT.password);
    await field('Confirm password').fill(CLIENT.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(MESSAGES.accountCreated).first().waitFor();
    await page.waitForURL('**/login**');
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await field('Email').fill(CLIENT.email);
    await field('Password').fill(CLIENT.password);
    await page.getByRole('button', { name: /log in|sign in/i }).click();
    await expect.poll(() => page.url(), { timeout: 30_000 }).toMatch(/\/terms\?package=Growth/);
  });

  it('signs it: a typed name and a ticked agreement; then pays; the checklist item is done, not asked again', async () => {
    const text = await page.getByLabel('Letter text').textContent();
    expect(text).toContain('SCHEDULE OF SERVICES: Growth');
    expect(text).toContain('£100.00 per month');
    // Not ticked: refused with the reason.
    await page.getByLabel('Type your full name to sign').fill(SIGNER);
    await page.getByRole('button', { name: 'Sign and continue to payment' }).click();
    await page.getByText(ENGAGEMENT_MESSAGES.mustAgree).waitFor();
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Sign and continue to payment' }).click();
    await page.getByText(ENGAGEMENT_MESSAGES.signed).first().waitFor();
    await expect.poll(() => page.url(), { timeout: 30_000 }).toMatch(/\/checkout\/test\?session_id=/);
    await page.getByRole('button', { name: /^Pay £100\.00/ }).click();
    await page.waitForURL('**/payment-success?session_id=*');
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await page.waitForURL('**/client-dashboard');
    const item = page.locator('li').filter({ hasText: ENGAGEMENT_MESSAGES.checklistItem });
    await item.getByText(/^Signed \d{2} \w{3} \d{4}$/).waitFor({ timeout: 30_000 });
    expect(await item.getByRole('button', { name: ENGAGEMENT_MESSAGES.checklistItem }).count()).toBe(0);
  });

  it('downloads the PDF: the package, £100.00 per month, the signer, and the SHA-256 of the letter text as stored', async () => {
    const item = page.locator('li').filter({ hasText: ENGAGEMENT_MESSAGES.checklistItem });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      item.getByRole('button', { name: 'Download signed PDF (v1)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^engagement-letter-v1-signed-\d{4}-\d{2}-\d{2}\.pdf$/);
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const lines = pdfTextLines(pdf);
    const all = lines.join('\n');
    expect(all).toContain('Growth');
    expect(all).toContain('£100.00 per month');
    expect(lines).toContain(SIGNER);
    const stated = lines.find((l) => l.startsWith('SHA-256: '))!.slice('SHA-256: '.length);
    const { rows } = await server.pool.query(
      `select l.text, l.text_sha256 from engagement.letters l join engagement.client_directory c on c.client_id = l.client_id
        where c.contact_email = $1 and l.version = 1`,
      [CLIENT.email],
    );
    expect(rows).toHaveLength(1);
    expect(stated).toBe(sha(rows[0].text));
    expect(stated).toBe(rows[0].text_sha256);
  });

  it('moving to Scale asks for a new signature; the first signed PDF is still listed', async () => {
    // The package change is under Billing in the client portal (issue 33, item 4).
    await page.getByRole('navigation', { name: 'Client portal' }).getByRole('link', { name: 'Billing' }).click();
    await page.waitForURL('**/portal/billing');
    await page.getByRole('combobox', { name: 'New package' }).click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
      .filter({ hasText: 'Scale: £150.00/month' })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Move to Scale?' });
    await confirm.getByRole('button', { name: 'Change package' }).click();
    await page.getByText('Your package is now Scale.').waitFor();
    await page.goto('/client-dashboard');
    const item = page.locator('li').filter({ hasText: ENGAGEMENT_MESSAGES.checklistItem });
    await item.getByText('To do').waitFor({ timeout: 30_000 });
    await item.getByText(/please sign the new version/).waitFor();
    await item.getByRole('button', { name: 'Download signed PDF (v1)' }).waitFor();
    await item.getByText('Superseded').waitFor();
    // The signed letter is also in the client's documents (the portal's Documents page).
    await page.goto('/portal/documents');
    await page
      .getByText(/engagement-letter-v1-signed-/)
      .first()
      .waitFor();
  });
});
