import { isOpenDuringMaintenance } from '@countinghouse/proto';
import { lazy, Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { usePublicConfig } from '../public/api';
import { PracticeContact } from '../client/PracticeContact';
import { PageSpinner } from '../../shared/PageSpinner';
import { APP_NAME } from '../../shared/use-page-title';
import { usePageMenu } from '../../shared/use-page-menu';
import './portal.css';

const Maintenance = lazy(() => import('../status-pages/Maintenance'));

/** The portal's sections (issue 33, item 4). Home is the spec's /dashboard (decision 640). */
export const PORTAL_NAV = [
  { to: '/dashboard', label: 'Home', also: ['/client-dashboard', '/portal'] },
  { to: '/portal/documents', label: 'Documents' },
  { to: '/portal/requests', label: 'Requests' },
  { to: '/portal/messages', label: 'Messages' },
  { to: '/portal/deadlines', label: 'Deadlines' },
  { to: '/portal/billing', label: 'Billing' },
  { to: '/portal/account', label: 'Account' },
] as const;

/**
 * The frame of a signed-in client's pages: the practice's name, the portal's own nav (not the
 * marketing site's), and the practice's contact details. On a narrow screen the nav folds behind a
 * Menu button (a disclosure: aria-expanded, closes when the page changes).
 */
export function PortalLayout() {
  const { isLoading, maintenance, practice } = usePublicConfig();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = usePageMenu();
  if (maintenance && !isOpenDuringMaintenance(location.pathname))
    return (
      <Suspense fallback={<PageSpinner fullScreen />}>
        <Maintenance practice={practice} />
      </Suspense>
    );

  const name = practice?.name || (isLoading ? '' : APP_NAME);
  const current = PORTAL_NAV.find(
    (l) => l.to === location.pathname || ('also' in l && (l.also as readonly string[]).includes(location.pathname)),
  );
  return (
    <div className="portal">
      <a href="#portal-main" className="portal__skip">
        Skip to content
      </a>
      <header className="portal__header">
        <div className="portal__bar">
          <Link to="/dashboard" className="portal__brand">
            <span className="portal__logo" aria-hidden="true">
              £
            </span>
            <span>{name || '\u00a0'}</span>
            <span className="portal__brand-sub">Client portal</span>
          </Link>
          <button
            type="button"
            className="portal__menu-button"
            aria-expanded={menuOpen}
            aria-controls="portal-nav"
            onClick={() => setMenuOpen((o) => !o)}
          >
            Menu{current ? <span className="portal__menu-current">: {current.label}</span> : null}
          </button>
        </div>
        <nav id="portal-nav" aria-label="Client portal" className={`portal__nav${menuOpen ? ' is-open' : ''}`}>
          <ul>
            {PORTAL_NAV.map((l) => (
              <li key={l.to}>
                <Link
                  to={l.to}
                  className={`portal__link${current?.to === l.to ? ' is-active' : ''}`}
                  aria-current={current?.to === l.to ? 'page' : undefined}
                >
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="portal-main" className="portal__main" tabIndex={-1}>
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="portal__footer">
        <PracticeContact />
      </footer>
    </div>
  );
}

export default PortalLayout;
