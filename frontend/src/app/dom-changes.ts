/**
 * Calls `fn` at most once per animation frame after the DOM under `target` changes (a burst of
 * mutations, e.g. a table rendering its rows, is one call). Returns what stops watching.
 */
export function onDomChanges(target: Node, options: MutationObserverInit, fn: () => void): () => void {
  let queued = false;
  const observer = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fn();
    });
  });
  observer.observe(target, options);
  return () => observer.disconnect();
}
