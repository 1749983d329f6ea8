import { lazy, Suspense } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { isOpenDuringMaintenance, STAFF_PORTAL_ROLES, type Me, type Role } from '@countinghouse/proto';
import { usePublicConfig } from '../../features/public/api';
import { APP_NAME } from '../../shared/use-page-title';
import { usePageMenu } from '../../shared/use-page-menu';
import './public-layout.css';

// Plain HTML and CSS, no antd: the marketing pages stay light. Client pages inside this frame load
// antd with their own chunk.
const Maintenance = lazy(() => import('../../features/status-pages/Maintenance'));
// Who is signed in (with Log out) comes in its own chunk, with the auth API: a visitor's first paint
// shows "Log in" at once and the home page stays within its JavaScript budget.
const SessionLinks = lazy(() => import('./SessionLinks'));

const NAV_LINKS = [
  { to: '/who-we-help', label: 'Who we help' },
  { to: '/services', label: 'Services' },
  { to: '/resources', label: 'Resources' },
  { to: '/about-us', label: 'About us' },
  { to: '/blog', label: 'Blog' },
  { to: '/package-selection', label: 'Packages' },
] as const;

/** Where a signed-in person's "Dashboard" goes: the staff portal for staff, else the client dashboard. */
export function dashboardPathOf(me: Pick<Me, 'roles'>): string {
  return isStaff(me) ? '/staff/dashboard' : '/dashboard';
}

export function isStaff(me: Pick<Me, 'roles'>): boolean {
  return me.roles.some((r) => (STAFF_PORTAL_ROLES as readonly Role[]).includes(r));
}

/** Notice shown once after the header's Log out (router state, so a reload does not repeat it). */
export interface FrameState {
  notice?: string;
}

/** A spinner drawn in CSS, announced to screen readers. */
function PublicSpinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="public-spinner">
      <span className="public-spinner__ring" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** Shared frame of the public and client pages: header, nav, footer, and the maintenance switch. */
export function PublicLayout() {
  const { isLoading, maintenance, practice } = usePublicConfig();
  // (the mobile menu closes when the page changes)
  const [menuOpen, setMenuOpen] = usePageMenu();
  const location = useLocation();
  const notice = (location.state as FrameState | null)?.notice;

  // The staff portal and its sign-in share this frame but stay open during maintenance.
  if (maintenance && !isOpenDuringMaintenance(location.pathname))
    return (
      <Suspense fallback={<PublicSpinner />}>
        <Maintenance practice={practice} />
      </Suspense>
    );

  // While the config loads the frame shows without the practice's details, so the page itself
  // is not held back by that request.
  const name = practice?.name || (isLoading ? '' : APP_NAME);
  const year = new Date().getFullYear();
  return (
    <div className="public-layout">
      <a href="#main" className="public-layout__skip">
        Skip to content
      </a>
      <header className="public-layout__header">
        <div className="public-layout__bar">
          <Link to="/" className="public-layout__brand" aria-label={name || APP_NAME}>
            <span className="public-layout__logo" aria-hidden="true">
              £
            </span>
            <span>{name || '\u00a0'}</span>
          </Link>
          <button
            type="button"
            className="public-layout__menu-button"
            aria-expanded={menuOpen}
            aria-controls="public-nav"
            onClick={() => setMenuOpen((o) => !o)}
          >
            Menu
          </button>
          <nav id="public-nav" aria-label="Main" className={`public-layout__nav${menuOpen ? ' is-open' : ''}`}>
            {NAV_LINKS.map((link) => (
              <NavLink key={link.to} to={link.to} className="public-layout__link">
                {link.label}
              </NavLink>
            ))}
            <Suspense
              fallback={
                <NavLink to="/login" className="public-layout__link">
                  Log in
                </NavLink>
              }
            >
              <SessionLinks />
            </Suspense>
          </nav>
        </div>
      </header>
      <main id="main" className="public-layout__content" tabIndex={-1}>
        {notice && (
          <p role="status" className="public-layout__notice">
            {notice}
          </p>
        )}
        <Suspense fallback={<PublicSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="public-layout__footer">
        <div className="public-layout__footer-grid">
          <div>
            <p className="public-layout__footer-name">{name || APP_NAME}</p>
            <p>Online accountants for UK sole traders, partnerships and limited companies.</p>
          </div>
          <div>
            <h2 className="public-layout__footer-heading">Talk to us</h2>
            <ul className="public-layout__footer-list">
              {practice?.phone && (
                <li>
                  <a href={`tel:${practice.phone.replace(/\s+/g, '')}`} className="public-layout__link">
                    {practice.phone}
                  </a>
                </li>
              )}
              {practice?.email && (
                <li>
                  <a href={`mailto:${practice.email}`} className="public-layout__link">
                    {practice.email}
                  </a>
                </li>
              )}
              <li>Monday to Friday, 9am to 5.30pm</li>
            </ul>
          </div>
          <div>
            <h2 className="public-layout__footer-heading">Explore</h2>
            <ul className="public-layout__footer-list">
              <li>
                <Link to="/package-selection" className="public-layout__link">
                  Packages and prices
                </Link>
              </li>
              <li>
                <Link to="/who-we-help" className="public-layout__link">
                  Who we help
                </Link>
              </li>
              <li>
                <Link to="/blog" className="public-layout__link">
                  Blog
                </Link>
              </li>
              <li>
                <Link to="/staff-login" className="public-layout__link">
                  Staff sign-in
                </Link>
              </li>
            </ul>
          </div>
        </div>
        <p className="public-layout__legal">
          © {year} {name || APP_NAME}. Prices exclude VAT where it applies. Monthly subscriptions, cancel any time.
        </p>
      </footer>
    </div>
  );
}

export default PublicLayout;
