import { lazy, Suspense, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { isOpenDuringMaintenance, MESSAGES, STAFF_PORTAL_ROLES, type Me, type Role } from '@countinghouse/proto';
import { authApi, usePersonLogoutMutation, useSessionProbeQuery } from '../../features/auth/api';
import { forgetPrivateData } from '../../features/auth/forget';
import { usePublicConfig } from '../../features/public/api';
import { personSessionReset } from '../person-session';
import { useAppDispatch } from '../store';
import { APP_NAME } from '../../shared/use-page-title';
import './public-layout.css';

// Plain HTML and CSS, no antd: the marketing pages stay light. Client pages inside this frame load
// antd with their own chunk.
const Maintenance = lazy(() => import('../../features/status-pages/Maintenance'));

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

function isStaff(me: Pick<Me, 'roles'>): boolean {
  return me.roles.some((r) => (STAFF_PORTAL_ROLES as readonly Role[]).includes(r));
}

/** Signed-in pages whose own guard asks `me` (the header reads its answer). */
const SELF_CHECKING = ['/dashboard', '/client-dashboard', '/payment-success', '/integrations', '/staff/dashboard'];

/** Notice shown once after the header's Log out (router state, so a reload does not repeat it). */
interface FrameState {
  notice?: string;
}

/**
 * The header's session links: "Log in" for a visitor; for a signed-in client or member of staff
 * who it is, Dashboard and Log out, on every page of this frame (issue 22). The person comes from
 * the client pages' `me` when cached, else from a probe that never refreshes or ends a session.
 */
function SessionLinks() {
  const { pathname } = useLocation();
  const cached = authApi.endpoints.me.useQueryState();
  // Pages that check the session themselves (RequireClient, the staff portal) fill `me`: no second call.
  const ownCheck = SELF_CHECKING.some((p) => pathname === p || pathname.startsWith(`${p}/`));
  const probe = useSessionProbeQuery(undefined, { skip: Boolean(cached.data) || ownCheck });
  const me = cached.data ?? probe.data;
  const [logout, { isLoading }] = usePersonLogoutMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  if (!me)
    return (
      <NavLink to="/login" className="public-layout__link">
        Log in
      </NavLink>
    );

  const who = me.user.first_name?.trim() || me.user.email;
  const signOut = async () => {
    try {
      await logout().unwrap();
    } catch {
      // Signed out locally anyway; the access token expires on its own.
    }
    const state: FrameState = { notice: MESSAGES.loggedOut };
    // Leave the page first, so a signed-in page's guard does not see its data vanish and redirect.
    navigate(isStaff(me) ? '/staff-login' : '/login', { replace: true, state });
    dispatch(forgetPrivateData());
    dispatch(personSessionReset());
  };
  return (
    <span className="public-layout__session">
      <span className="public-layout__who" title={me.user.email}>
        Signed in as <strong>{who}</strong>
      </span>
      <NavLink to={dashboardPathOf(me)} className="public-layout__link">
        Dashboard
      </NavLink>
      <button type="button" className="public-layout__logout" onClick={() => void signOut()} disabled={isLoading}>
        {isLoading ? 'Logging out…' : 'Log out'}
      </button>
    </span>
  );
}

/** A spinner drawn in CSS, announced to screen readers. */
export function PublicSpinner({ label = 'Loading…' }: { label?: string }) {
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
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const notice = (location.state as FrameState | null)?.notice;
  const [menuPath, setMenuPath] = useState(location.pathname);
  // Close the mobile menu when the page changes.
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setMenuOpen(false);
  }

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
            <SessionLinks />
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
