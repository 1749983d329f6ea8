import { useEffect } from 'react';

/** Boxes that scroll sideways: antd tables' own scroll boxes, and any element marked data-scroll-region. */
const SELECTOR = ['.ant-table-content', '.ant-table-body', '[data-scroll-region]']
  .map((s) => `${s}:not([data-scroll-region-ready])`)
  .join(', ');

/**
 * A box that scrolls sideways must be reachable by keyboard (WCAG 2.1.1; axe
 * `scrollable-region-focusable`): each one gets tabindex 0, role region and a name (the table's
 * caption or aria-label, else "Table"), and the `scroll-region` class that draws the edge shadows
 * saying there is more. Applied to every page in the antd shell, so new pages inherit it.
 *
 * Marked in the MutationObserver's own callback (a microtask after the change, before anything else
 * runs), not a frame later: a table drawn in the frame before a keyboard user's Tab, or before an
 * audit, was not yet reachable (axe found a Deadlines table at 390 px unmarked once, in a CI run). Only
 * what each change added is searched, not the whole page: a page's render is many changes.
 */
function markScrollRegion(el: HTMLElement): void {
  el.dataset.scrollRegionReady = 'true';
  el.classList.add('scroll-region');
  if (!el.hasAttribute('tabindex')) el.tabIndex = 0;
  if (!el.getAttribute('role')) el.setAttribute('role', 'region');
  if (!el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby')) {
    const named = el.closest<HTMLElement>('[aria-label]');
    const caption = el.querySelector('caption')?.textContent?.trim();
    const label = caption || named?.getAttribute('aria-label') || 'Table';
    el.setAttribute('aria-label', `${label} (scrolls sideways)`);
  }
}

/** The regions in `root` (and `root` itself when it is one) not marked yet. */
function markScrollRegions(root: Element | Document): void {
  if (root instanceof HTMLElement && root.matches(SELECTOR)) markScrollRegion(root);
  for (const el of root.querySelectorAll<HTMLElement>(SELECTOR)) markScrollRegion(el);
}

export function useScrollRegions(): void {
  useEffect(() => {
    if (typeof MutationObserver === 'undefined') return;
    markScrollRegions(document);
    const observer = new MutationObserver((changes) => {
      for (const change of changes) for (const node of change.addedNodes) if (node instanceof Element) markScrollRegions(node);
    });
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
}
