import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { MESSAGES } from '@countinghouse/proto';
import { usePageTitle } from '../../shared/use-page-title';
import './status-pages.css';

/** `embedded` when shown inside a layout that already has its own <main>. */
export function NotFound({ embedded = false }: { embedded?: boolean }) {
  const { pathname } = useLocation();
  usePageTitle('Page not found');
  useEffect(() => {
    // Kept as the spec asks: shows up in the browser console and in error monitoring.
    console.error('404 Error: User attempted to access non-existent route:', pathname);
  }, [pathname]);

  const Wrapper = embedded ? 'div' : 'main';
  return (
    <Wrapper className={embedded ? 'status-page status-page--embedded' : 'status-page'}>
      <h1 className="status-page__code">{MESSAGES.notFoundHeading}</h1>
      <p className="status-page__text">{MESSAGES.notFoundText}</p>
      <Link to="/" className="status-page__link">
        {MESSAGES.returnToHome}
      </Link>
    </Wrapper>
  );
}

export default NotFound;
