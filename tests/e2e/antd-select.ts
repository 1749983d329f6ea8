import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

// antd's Select in the browser tests (crm, documents): its options are drawn in a dropdown elsewhere in
// the page, kept there (hidden) while it animates out.

/** A select's list that is open (antd marks a closed one hidden). */
const OPEN_LIST = '.ant-select-dropdown:not(.ant-select-dropdown-hidden)';

/** The options of the select that is open. */
export const openOptions = (page: Page) => page.locator(`${OPEN_LIST} .ant-select-item-option`);

/** antd keeps a closed dropdown in the page while it animates out: wait until none is open. */
export async function noOpenDropdown(page: Page) {
  await expect.poll(() => page.locator(OPEN_LIST).count()).toBe(0);
}

/** Choose `option` (its title, or its text) in the select `combobox`. */
export async function pickOption(page: Page, combobox: Locator, option: string) {
  await noOpenDropdown(page);
  await combobox.click();
  await openOptions(page)
    .locator(`[title="${option}"]`)
    .or(openOptions(page).filter({ hasText: option }))
    .first()
    .waitFor();
  // Chosen with the keyboard, as a keyboard user does (arrows to the option, Enter), not by a click on it:
  // under load a click on an option was lost in four runs (the list still moving, or drawn again, between
  // the press and the release), and each test then checks what was chosen.
  const titles = await openOptions(page).evaluateAll((els) =>
    els.map((e) => ({ title: e.getAttribute('title'), active: e.classList.contains('ant-select-item-option-active') })),
  );
  const target = titles.findIndex((t) => t.title === option);
  expect(target, `the option ${option} in ${titles.map((t) => t.title).join(', ')}`).toBeGreaterThanOrEqual(0);
  const active = Math.max(
    0,
    titles.findIndex((t) => t.active),
  );
  for (let i = active; i < target; i++) await page.keyboard.press('ArrowDown');
  for (let i = active; i > target; i--) await page.keyboard.press('ArrowUp');
  await expect.poll(() => openOptions(page).and(page.locator('.ant-select-item-option-active')).getAttribute('title')).toBe(option);
  await page.keyboard.press('Enter');
  // antd's leave animation has been seen to stall with the option chosen (the list stays drawn): Escape
  // closes it as a keyboard user would; what was chosen is checked by each test after.
  const open = page.locator(OPEN_LIST);
  if (
    !(await open
      .first()
      .waitFor({ state: 'hidden', timeout: 5_000 })
      .then(
        () => true,
        () => false,
      ))
  ) {
    await page.keyboard.press('Escape');
  }
  await noOpenDropdown(page);
}
