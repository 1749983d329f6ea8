import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { networkQuiet } from './network.js';

// axe-core from npm, evaluated in the page through the DevTools protocol (Runtime.evaluate): the
// site's Content-Security-Policy forbids injected <script> tags (playwright's addScriptTag), and
// DevTools evaluation is not a page script.
const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/** WCAG 2.1 A and AA, as the audit of issue 22 ran it. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeProblem {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Critical and serious axe violations of the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeProblem[]> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) {
    const cdp = await page.context().newCDPSession(page);
    try {
      const r = await cdp.send('Runtime.evaluate', { expression: `${AXE_SOURCE};true`, returnByValue: true });
      if (r.exceptionDetails) throw new Error(`axe-core did not load: ${r.exceptionDetails.text}`);
    } finally {
      await cdp.detach();
    }
  }
  const result = (await page.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(TAGS)} }, resultTypes: ['violations'] })
       .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })))`,
  )) as AxeProblem[];
  return result.filter((v) => v.impact === 'critical' || v.impact === 'serious');
}

/** How wide the document is (it must not scroll sideways on a phone). */
export async function documentWidth(page: Page): Promise<number> {
  return (await page.evaluate('document.scrollingElement.scrollWidth')) as number;
}

/** The elements wider than the viewport, for a failure message that says where to look. */
export async function widestElements(page: Page, limit = 5): Promise<string[]> {
  return (await page.evaluate(`(() => {
    const vw = document.documentElement.clientWidth;
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.right > vw + 1 && r.width > 0) {
        let p = el.parentElement, clipped = false;
        while (p) { const s = getComputedStyle(p); if (/(auto|scroll|hidden|clip)/.test(s.overflowX)) { const pr = p.getBoundingClientRect(); if (pr.right <= vw + 1) { clipped = true; break; } } p = p.parentElement; }
        if (!clipped) out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).slice(0, 2).join('.') : '') + ' right=' + Math.round(r.right));
      }
      if (out.length >= ${limit}) break;
    }
    return out;
  })()`)) as string[];
}

/**
 * In the page: resolve once `frames` animation frames in a row had no finite CSS transition or animation
 * running (antd's motion: drawers, the tabs' ink bar, a hover's colour; the spinners' endless ones are not
 * waited for), or after `timeoutMs`. rc-motion steps its classes frame by frame, so one quiet frame is not
 * enough. `document.getAnimations()` brings style up to date first, so a transition just begun counts.
 */
const MOTION_ENDED = `(frames, timeoutMs) => new Promise((resolve) => {
  const until = performance.now() + timeoutMs;
  let quiet = 0;
  const tick = () => {
    const moving = document.getAnimations().some((a) => a.playState === 'running' && a.effect && a.effect.getComputedTiming().endTime !== Infinity);
    quiet = moving ? 0 : quiet + 1;
    if (quiet >= frames || performance.now() > until) resolve(true);
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`;

/** Wait until the page has settled: network quiet, no spinner, no skeleton, fonts laid out, motion ended. */
export async function settle(page: Page): Promise<void> {
  // The pointer off the content: a row left hovered by the last click is mid-transition, and axe measured
  // its button's contrast against the half-changed background once.
  await page.mouse.move(0, 0);
  await networkQuiet(page);
  await page
    .waitForFunction('!document.querySelector(".ant-spin-spinning, .ant-skeleton-active, .public-spinner, [aria-busy=true]")', undefined, {
      timeout: 15_000,
    })
    .catch(() => {});
  // (was a fixed 350 ms for antd's motion, and Playwright's 'networkidle', a fixed 500 ms of quiet: about
  // 0.65 s a page more, waiting, on every page the browser files audit; docs/perf/tests.md, session 20)
  await page.evaluate(`document.fonts.ready.then(() => (${MOTION_ENDED})(3, 5000))`);
}

export interface PageCheck {
  size: 'desktop' | 'phone';
  path: string;
  violations: AxeProblem[];
  width: number;
  overflow: string[];
}

/**
 * Open a section of a tabbed page (ResponsiveTabs): the tab on a wide screen, the labelled select's
 * option on a phone; then wait for the section's own content.
 */
export async function openSection(page: Page, name: string, select = 'Section'): Promise<void> {
  const tab = page.getByRole('tab', { name, exact: true });
  if (await tab.isVisible().catch(() => false)) {
    // A click the page moved away from (content arriving above the tabs) is made again, as a user would.
    const selected = page.getByRole('tab', { name, exact: true, selected: true });
    for (let attempt = 1; attempt < 3; attempt++) {
      await tab.click();
      if (
        await selected.waitFor({ timeout: 5_000 }).then(
          () => true,
          () => false,
        )
      )
        return;
    }
    await tab.click();
    await selected.waitFor();
    return;
  }
  const combobox = page.getByRole('combobox', { name: select });
  // (the select as drawn: its text is the chosen option's label; its list is drawn elsewhere)
  const chosen = page.locator('.ant-select', { has: combobox }).first();
  // On a loaded machine the option's click has been seen not to take (the list closed on the section
  // before): the choice is checked, and made again, as a user would, if the select does not show it.
  for (let attempt = 1; ; attempt++) {
    await combobox.click();
    // antd draws the visible options itself (its role=option list is a zero-size one for screen readers)
    await page
      .locator('.ant-select-dropdown .ant-select-item-option')
      .and(page.getByTitle(name, { exact: true }))
      .click();
    // the list closes (an open listbox is not part of the page being checked). On a loaded machine antd's
    // leave animation has been seen to stall with the option chosen; Escape closes it as a keyboard user would.
    const open = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
    if (
      !(await open.waitFor({ state: 'hidden', timeout: 5_000 }).then(
        () => true,
        () => false,
      ))
    ) {
      await page.keyboard.press('Escape');
      await open.waitFor({ state: 'hidden' });
    }
    const shown = (await chosen.innerText({ timeout: 5_000 })).split('\n').map((l) => l.trim());
    if (shown.includes(name) || attempt === 3) break;
  }
}

/** Visit `path` at both sizes; return what axe and the width check found at each. */
export async function auditPage(page: Page, path: string, ready: (page: Page) => Promise<unknown>): Promise<PageCheck[]> {
  const out: PageCheck[] = [];
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto(path);
    await ready(page);
    await settle(page);
    const width = await documentWidth(page);
    out.push({
      size,
      path,
      violations: await seriousViolations(page),
      width,
      overflow: size === 'phone' && width > PHONE.width ? await widestElements(page) : [],
    });
  }
  return out;
}

/** One line per problem, for the assertion message. */
export function describeProblems(checks: PageCheck[]): string[] {
  const lines: string[] = [];
  for (const c of checks) {
    for (const v of c.violations) lines.push(`${c.path} @${c.size}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(' | ')}`);
    if (c.size === 'phone' && c.width > PHONE.width) lines.push(`${c.path} @phone: ${c.width} px wide: ${c.overflow.join(' | ')}`);
  }
  return lines;
}
