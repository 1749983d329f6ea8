import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { ScriptList, ScriptRecord } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, startE2EServer, type E2EServer } from './server.js';

// Issue 8's acceptance: generate a script in a real browser (no AI provider: the template generator),
// download it and copy it.
let server: E2EServer;
let browser: Browser;

beforeAll(async () => {
  server = await startE2EServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function signInAndOpenTab(page: Page) {
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(server.admin.username);
  await page.getByLabel('Password').fill(server.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/admin');
  await page.getByRole('tab', { name: 'AI Video' }).click();
  await page.getByRole('heading', { name: 'AI Video Script Generator' }).waitFor();
}

describe('AI video scripts (browser)', () => {
  it('generates a Company Overview with the template generator, downloads it and copies it', async () => {
    const context = await newContext(browser, server.baseUrl, { acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    // Linux Chromium has no share sheet; make sure of it, so Share takes the clipboard path.
    await context.addInitScript({
      content: "Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true });",
    });
    const page = await context.newPage();
    await signInAndOpenTab(page);

    await page.getByText('No AI provider is configured', { exact: false }).waitFor();
    expect(await page.getByRole('radio', { name: 'Company Overview (60-90 seconds)' }).isChecked()).toBe(true);

    // Custom needs a description first.
    await page.getByText('Custom Video (custom length)').click();
    const generate = page.getByRole('button', { name: /Generate Video Script/ });
    expect(await generate.isDisabled()).toBe(true);
    await page.getByLabel('Describe your video').fill('A short reel for landlords');
    expect(await generate.isEnabled()).toBe(true);
    await page.getByText('Company Overview (60-90 seconds)').click();

    await generate.click();
    await page.getByText('Video script generated successfully!').waitFor();
    const result = page.getByTestId('script-result');
    await result.waitFor();
    await result.getByText('Written by the built-in template generator because no AI provider is configured.').waitFor();
    await result.getByRole('heading', { name: 'Next Steps' }).waitFor();
    await page.screenshot({ path: '/tmp/e2e-media-result.png', fullPage: true });

    // The server's record of it, read with the browser's own session.
    const list = (await (await page.request.get('/api/media/scripts')).json()) as ScriptList;
    expect(list.total).toBe(1);
    const record = (await (await page.request.get(`/api/media/scripts/${list.scripts[0]!.id}`)).json()) as ScriptRecord;
    expect(record).toMatchObject({ status: 'completed', type: 'company_overview', generator: 'template' });
    expect(record.script!.total_seconds).toBeGreaterThanOrEqual(60);
    expect(record.script!.total_seconds).toBeLessThanOrEqual(90);
    await result.getByText(record.script!.title).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), result.getByRole('button', { name: /Download/ }).click()]);
    expect(download.suggestedFilename()).toBe('countinghouse-accountants-company-overview-script.txt');
    const file = readFileSync((await download.path())!, 'utf8');
    expect(file).toBe(record.text);
    expect(file.split('\n')[0]).toBe('Countinghouse Accountants: Company Overview');
    expect(file).toContain('Video type: Company Overview (60-90 seconds)');
    expect(file).toContain('Scene 1 [0:00 - 0:08]');
    expect(file).toContain('020 7946 0321');
    await page.getByText('Script downloaded successfully!').waitFor();

    await result.getByRole('button', { name: /Share/ }).click();
    await page.getByText('Script copied to clipboard!').waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(record.text);

    // It is in the earlier scripts, and reopens after a reload.
    await page.reload();
    await page.getByRole('tab', { name: 'AI Video' }).click();
    await page.getByRole('button', { name: `Open ${record.script!.title}` }).click();
    await page.getByTestId('script-result').getByText(record.script!.scenes[0]!.narration).waitFor();
    await context.close();
  });
});
