import { useCallback, useEffect, useState } from 'react';
import { LIMITS } from '@countinghouse/proto';

const SIDEBAR_COOKIE = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE = LIMITS.sidebarCookieDays * 24 * 60 * 60;
/** Below 768 px (spec) the sider collapses: the same edge antd uses for `md`. */
const MOBILE_QUERY = `(max-width: ${LIMITS.mobileBreakpointPx - 0.02}px)`;

/** true = open, false = closed, null = never chosen. */
function readSidebarOpen(): boolean | null {
  const match = document.cookie.split('; ').find((part) => part.startsWith(`${SIDEBAR_COOKIE}=`));
  const value = match?.slice(SIDEBAR_COOKIE.length + 1);
  return value === 'true' ? true : value === 'false' ? false : null;
}

function writeSidebarOpen(open: boolean): void {
  document.cookie = `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax`;
}

function isMobileViewport(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(MOBILE_QUERY).matches;
}

/**
 * Sider open/closed state: restored from the cookie, forced closed on small viewports, and
 * written back only when the user toggles it (an automatic collapse is not a preference).
 */
export function useSidebarState() {
  const [isMobile, setIsMobile] = useState(isMobileViewport);
  const [open, setOpen] = useState(() => !isMobileViewport() && (readSidebarOpen() ?? true));

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const mql = window.matchMedia(MOBILE_QUERY);
    const onChange = () => {
      setIsMobile(mql.matches);
      setOpen(!mql.matches && (readSidebarOpen() ?? true));
    };
    mql.addEventListener('change', onChange);
    return () => mql.removeEventListener('change', onChange);
  }, []);

  // On a phone the sidebar is a drawer: opening it is not a preference to remember.
  const toggle = useCallback(() => {
    const next = !open;
    setOpen(next);
    if (!isMobile) writeSidebarOpen(next);
  }, [open, isMobile]);

  /** Close the phone drawer (after a choice, Escape, a tap outside); the desktop sider stays as chosen. */
  const closeDrawer = useCallback(() => {
    if (isMobile) setOpen(false);
  }, [isMobile]);

  return { open, isMobile, toggle, closeDrawer };
}
