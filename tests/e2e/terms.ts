import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/**
 * Terms before payment (issue 33): a client choosing a package is shown its engagement letter at
 * /terms?package=… and signs it (typed name, agreement) before the checkout starts. Waits for the
 * letter page, signs, and waits for the built-in test checkout.
 */
export async function signTermsBeforePaying(page: Page, signer: string, timeout = 60_000): Promise<void> {
  await expect.poll(() => page.url(), { timeout }).toMatch(/\/terms\?package=/);
  await page.getByRole('heading', { level: 1, name: /^Your engagement letter for the / }).waitFor({ timeout });
  await page.getByLabel('Type your full name to sign').fill(signer);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Sign and continue to payment' }).click();
  await expect.poll(() => page.url(), { timeout }).toMatch(/\/checkout\/test\?session_id=/);
}
