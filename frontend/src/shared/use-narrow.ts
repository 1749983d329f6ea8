import { LIMITS } from '@countinghouse/proto';
import { useEffect, useState } from 'react';

/** Below 768 px: phones (the back-office sidebar's edge too). */
const NARROW_QUERY = `(max-width: ${LIMITS.mobileBreakpointPx - 0.02}px)`;

/** Whether the screen is below 768 px, following changes. */
export function useNarrow(): boolean {
  const query = () => typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches;
  const [narrow, setNarrow] = useState(query);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const mql = window.matchMedia(NARROW_QUERY);
    const onChange = () => setNarrow(mql.matches);
    mql.addEventListener('change', onChange);
    return () => mql.removeEventListener('change', onChange);
  }, []);
  return narrow;
}
