import { PgJobQueue } from '@countinghouse/kit';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, startE2EServer, type E2EServer } from './server.js';

// The job status page in Chromium: the schedules, a failed job with its error, and Retry running it.
let server: E2EServer;
let browser: Browser;
let admin: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startE2EServer();
  browser = await launchBrowser();
  admin = await newContext(browser, server.baseUrl);
  page = await admin.newPage();
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(server.admin.username);
  await page.getByLabel('Password').fill(server.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/admin');
  await page.getByRole('heading', { name: 'Admin Control Panel' }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('Background Jobs page (browser)', () => {
  it('shows the schedules, a failed job with its error, and Retry runs it', async () => {
    // A script job whose script row is missing fails for good at once (a permanent error).
    const scriptId = randomUUID();
    const client = new PgJobQueue({ pool: server.pool, logger: pino({ level: 'silent' }) });
    await client.start();
    await client.enqueue('media.generate_script', { scriptId }, { jobId: scriptId, attempts: 3 });
    await client.close();
    await expect
      .poll(async () => (await server.pool.query(`select state from pgboss.job where id = $1`, [scriptId])).rows[0]?.state, {
        timeout: 15_000,
      })
      .toBe('failed');

    await page.getByRole('link', { name: 'Background Jobs' }).click();
    await page.getByRole('heading', { level: 1, name: 'Background Jobs' }).waitFor();
    const schedules = page.locator('.ant-card').filter({ hasText: 'Schedules' });
    await schedules.getByRole('row', { name: /Sign-in housekeeping/ }).waitFor();
    expect(await schedules.getByRole('row', { name: /Sign-in housekeeping/ }).textContent()).toMatch(
      /Not yet run.*\d{2} [A-Z][a-z]{2} \d{4}, 03:30/,
    );

    const failed = page.locator('.ant-card').filter({ hasText: 'Failed jobs' });
    const row = failed.getByRole('row', { name: /Video script generation/ });
    await row.waitFor();
    expect(await row.textContent()).toContain(`No script ${scriptId}`);

    // The script now exists: Retry runs the job once more and it succeeds; the list empties.
    await server.pool.query(
      `insert into media.generated_scripts (id, type, requested_by_kind, requested_by_id, requested_by_name) values ($1, 'company_overview', 'admin', $2, 'e2e')`,
      [scriptId, randomUUID()],
    );
    await row.getByRole('button', { name: 'Retry Video script generation' }).click();
    await page.getByText('The job was queued again.').waitFor();
    await failed.getByText('No failed jobs.').waitFor({ timeout: 15_000 });
    await expect
      .poll(async () => (await server.pool.query(`select status from media.generated_scripts where id = $1`, [scriptId])).rows[0]?.status, {
        timeout: 15_000,
      })
      .toBe('completed');
  });
});
