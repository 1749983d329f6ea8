import { useEffect } from 'react';

export const APP_NAME = 'Countinghouse';

/** Sets document.title for the page; screen readers announce it on navigation. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} | ${APP_NAME}` : APP_NAME;
  }, [title]);
}
