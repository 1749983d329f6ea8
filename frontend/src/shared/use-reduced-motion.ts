import { useEffect, useState } from 'react';

/** The user's "reduce motion" setting (the system's accessibility preference, or a browser's). */
const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/**
 * Whether the user asked for less motion, following changes (WCAG 2.1 2.3.3, Animation from Interactions:
 * antd's drawers, dialogs, lists and tabs then open and close without their motion, as the product's own
 * spinners already stop: page-spinner.css, public-layout.css).
 */
export function usePrefersReducedMotion(): boolean {
  const query = () => typeof window.matchMedia === 'function' && window.matchMedia(REDUCED_MOTION_QUERY).matches;
  const [reduced, setReduced] = useState(query);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const mql = window.matchMedia(REDUCED_MOTION_QUERY);
    const onChange = () => setReduced(mql.matches);
    // (a change between the first render and this effect)
    onChange();
    mql.addEventListener('change', onChange);
    return () => mql.removeEventListener('change', onChange);
  }, []);
  return reduced;
}
