import './page-spinner.css';

/**
 * A centred spinner drawn in CSS with a spoken label; `fullScreen` fills the viewport. Plain markup on
 * purpose: it is the router's first fallback, so it must not pull the UI kit into the entry chunk.
 */
export function PageSpinner({ label = 'Loading…', fullScreen = false }: { label?: string; fullScreen?: boolean }) {
  return (
    <div role="status" aria-live="polite" className={fullScreen ? 'page-spinner page-spinner--full' : 'page-spinner'}>
      <span className="page-spinner__ring" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
