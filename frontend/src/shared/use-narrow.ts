import { LIMITS } from '@countinghouse/proto';
import { useEffect, useState } from 'react';

/** Below 768 px: phones (the back-office sidebar's edge too). */
const NARROW_QUERY = `(max-width: ${LIMITS.mobileBreakpointPx - 0.02}px)`;

/** The user asked their system for less motion (WCAG 2.3.3): antd's animations are turned off. */
const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** Whether a media query matches, following changes (false where the browser cannot tell). */
export function useMediaQuery(media: string): boolean {
  const query = () => typeof window.matchMedia === 'function' && window.matchMedia(media).matches;
  const [matches, setMatches] = useState(query);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const mql = window.matchMedia(media);
    const onChange = () => setMatches(mql.matches);
    mql.addEventListener('change', onChange);
    return () => mql.removeEventListener('change', onChange);
  }, [media]);
  return matches;
}

/** Whether the screen is below 768 px, following changes. */
export function useNarrow(): boolean {
  return useMediaQuery(NARROW_QUERY);
}

/** Whether the user prefers reduced motion, following changes. */
export function useReducedMotion(): boolean {
  return useMediaQuery(REDUCED_MOTION_QUERY);
}
