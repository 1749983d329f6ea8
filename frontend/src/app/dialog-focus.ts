import { useEffect } from 'react';
import { onDomChanges } from './dom-changes';

/** antd's modal dialogs and drawers (Modal, Modal.confirm, Drawer). */
const DIALOG = '.ant-modal[role="dialog"], .ant-drawer-content[role="dialog"], .ant-drawer-section[role="dialog"]';

/** What counts as a dialog's first field: a control the user types in or chooses from. */
const FIELD = [
  'input:not([type="hidden"]):not([type="file"]):not([disabled]):not([tabindex="-1"])',
  'textarea:not([disabled]):not([tabindex="-1"])',
  'select:not([disabled]):not([tabindex="-1"])',
].join(', ');

/** What a user may have opened a dialog from. */
const OPENER = 'button, a[href], input, select, textarea, [role="button"], [role="tab"], [role="menuitem"], [tabindex]';

function shown(el: Element): boolean {
  if (!el.isConnected) return false;
  if (typeof el.checkVisibility === 'function') return el.checkVisibility();
  // jsdom: no layout; an ancestor hidden by antd (display: none) or the hidden attribute
  return !el.closest('[hidden], [style*="display: none"]');
}

/** The first field of a dialog's body, if it has one (a confirmation has none). */
export function firstField(dialog: Element): HTMLElement | null {
  for (const el of dialog.querySelectorAll<HTMLElement>(FIELD)) {
    if (el.closest('.ant-modal-header, .ant-drawer-header')) continue;
    if (shown(el)) return el;
  }
  return null;
}

/**
 * Focus in every antd dialog (WCAG 2.4.3 focus order; issue 22): on open, focus goes to the dialog's
 * first field (antd puts it on the dialog box itself, a Tab away from where the user types); on close,
 * it goes back to the control that opened the dialog. antd restores focus only when the dialog plays its
 * closing motion: a dialog the page unmounts on close (`{open && <FormModal … />}`), or closes while
 * another is opening, left focus on the page's body, and a keyboard user back at the top of the page.
 * Installed once in the antd shell, so every dialog of every page inherits it.
 */
export function installDialogFocus(doc: Document = document): () => void {
  if (typeof MutationObserver === 'undefined') return () => {};
  let lastOutside: HTMLElement | null = null;
  const open = new Map<Element, HTMLElement | null>();

  const insideDialog = (el: Element) => el.closest(DIALOG) !== null;
  const remember = (target: EventTarget | null) => {
    if (!(target instanceof HTMLElement) || insideDialog(target)) return;
    const opener = target.closest<HTMLElement>(OPENER);
    if (opener && opener !== doc.body) lastOutside = opener;
  };
  const onFocusIn = (e: FocusEvent) => remember(e.target);
  // Safari does not focus a button on click: the pointer says what was pressed.
  const onPointerDown = (e: PointerEvent) => remember(e.target);

  const sync = () => {
    const visible = new Set<Element>();
    for (const dialog of doc.querySelectorAll(DIALOG)) if (shown(dialog)) visible.add(dialog);

    for (const [dialog, opener] of open) {
      if (visible.has(dialog)) continue;
      open.delete(dialog);
      const active = doc.activeElement;
      const lost = !active || active === doc.body || !shown(active) || dialog.contains(active);
      // Another dialog still open keeps focus (a confirmation over a form).
      const stillInADialog = active instanceof Element && active !== doc.body && insideDialog(active) && shown(active);
      if (lost && !stillInADialog && opener && shown(opener)) opener.focus({ preventScroll: true });
    }

    for (const dialog of visible) {
      if (open.has(dialog)) continue;
      open.set(dialog, lastOutside);
      const active = doc.activeElement;
      // A field the page focused itself (autoFocus) stays focused.
      if (active instanceof HTMLElement && dialog.contains(active) && active.matches(FIELD)) continue;
      const field = firstField(dialog);
      if (field) field.focus();
      // No field (a confirmation): focus at least inside the dialog, where antd puts it after its motion.
      else if (!(active instanceof Node && dialog.contains(active)) && dialog instanceof HTMLElement) dialog.focus();
    }
  };

  const stopWatching = onDomChanges(
    doc.body,
    { childList: true, subtree: true, attributes: true, attributeFilter: ['style', 'class', 'hidden'] },
    sync,
  );
  doc.addEventListener('focusin', onFocusIn, true);
  doc.addEventListener('pointerdown', onPointerDown, true);
  return () => {
    stopWatching();
    doc.removeEventListener('focusin', onFocusIn, true);
    doc.removeEventListener('pointerdown', onPointerDown, true);
  };
}

export function useDialogFocus(): void {
  useEffect(() => installDialogFocus(), []);
}
