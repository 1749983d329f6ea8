import { Suspense, useEffect, useRef } from 'react';
import { Button, Layout, Result } from 'antd';
import { LogoutOutlined } from '@ant-design/icons';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { ADMIN_SESSION_END_MESSAGES, httpStatus } from '../../api';
import { adminLoggedOut, selectAdminSessionEnd, selectAdminUser } from '../../admin-session';
import { useAppDispatch, useAppSelector } from '../../store';
import { useAdminSessionQuery } from '../../../features/admin-auth/api';
import { ADMIN_ACCOUNT_SECURITY_PATH } from '../../../features/admin-auth/paths';
import { useAdminLogout } from '../../../features/admin-auth/use-admin-logout';
import { PageSpinner } from '../../../shared/PageSpinner';
import { useToast } from '../../../shared/toast';
import { AdminHeader } from './AdminHeader';
import { AdminSidebar } from './AdminSidebar';
import { useSidebarState } from './sidebar-state';
import './admin-layout.css';

const CHECKING = 'Checking access…';

/**
 * The protected frame of /admin/*: verifies the admin session with the server on load (the
 * re-auth base query refreshes it once if needed) and sends the user to /admin/login when it fails.
 */
export function AdminLayout() {
  const user = useAppSelector(selectAdminUser);
  const ended = useAppSelector(selectAdminSessionEnd);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const toast = useToast();
  const sidebar = useSidebarState();
  const { signOut } = useAdminLogout();
  const session = useAdminSessionQuery(undefined, { refetchOnMountOrArgChange: true });

  // The phone drawer closes on any navigation (a menu choice, a search result, the browser's Back).
  const { pathname } = useLocation();
  const { closeDrawer } = sidebar;
  useEffect(() => closeDrawer(), [pathname, closeDrawer]);

  // A 401/403 the re-auth query did not already turn into a session end (e.g. a 403).
  const deniedStatus = session.isError ? httpStatus(session.error) : undefined;
  const isDenied = deniedStatus === 401 || deniedStatus === 403;
  const endReason = ended ?? (isDenied ? (user ? 'expired' : 'no-session') : null);

  // Until the account sets up two-factor sign-in, the set-up page is the only one (issue 32).
  const mustEnrol = session.data?.two_factor_enrolment_required === true;
  useEffect(() => {
    if (mustEnrol && pathname !== ADMIN_ACCOUNT_SECURITY_PATH) navigate(ADMIN_ACCOUNT_SECURITY_PATH, { replace: true });
  }, [mustEnrol, pathname, navigate]);

  const redirected = useRef(false);
  useEffect(() => {
    if (!endReason || redirected.current) return;
    redirected.current = true;
    toast.error(ADMIN_SESSION_END_MESSAGES[endReason], 'admin-session');
    dispatch(adminLoggedOut());
    navigate('/admin/login', { replace: true });
  }, [endReason, dispatch, navigate, toast]);

  if (endReason) return <PageSpinner fullScreen label={CHECKING} />;

  if (session.isError) {
    // The gateway is unreachable or failing: that is not a reason to sign the admin out.
    return (
      <Layout.Content>
        <Result
          status="error"
          title="We could not check your access"
          subTitle="The server did not answer. Check your connection and try again."
          extra={
            <Button type="primary" onClick={() => void session.refetch()}>
              Try again
            </Button>
          }
        />
      </Layout.Content>
    );
  }

  const verified = session.isSuccess && user !== null;
  // With no remembered admin there is nothing to paint yet; with one, show the frame while checking.
  if (!verified && !user) return <PageSpinner fullScreen label={CHECKING} />;

  // The practice requires two-factor sign-in and this account has none yet (issue 32): everything but
  // its set-up answers 403, so the frame is only the set-up page and a way out.
  if (mustEnrol) {
    return (
      <Layout className="admin-layout">
        <a href="#admin-main" className="skip-link">
          Skip to main content
        </a>
        <Layout.Header className="admin-layout__header">
          <span className="admin-layout__brand">Countinghouse admin</span>
          <div className="admin-layout__user">
            <span className="admin-layout__identity">
              <span className="admin-layout__username">{user?.username}</span>
            </span>
            <Button icon={<LogoutOutlined />} onClick={() => void signOut()}>
              Sign Out
            </Button>
          </div>
        </Layout.Header>
        <Layout.Content id="admin-main" tabIndex={-1} className="admin-layout__content">
          {pathname === ADMIN_ACCOUNT_SECURITY_PATH ? (
            <Suspense fallback={<PageSpinner />}>
              <Outlet />
            </Suspense>
          ) : (
            <PageSpinner label={CHECKING} />
          )}
        </Layout.Content>
      </Layout>
    );
  }

  return (
    <Layout className="admin-layout" hasSider={!sidebar.isMobile}>
      <a href="#admin-main" className="skip-link">
        Skip to main content
      </a>
      <AdminSidebar
        collapsed={!sidebar.open}
        isMobile={sidebar.isMobile}
        onSignOut={() => void signOut()}
        onNavigate={sidebar.closeDrawer}
      />
      <Layout className="admin-layout__main">
        <AdminHeader user={user} sidebarOpen={sidebar.open} onToggleSidebar={sidebar.toggle} />
        <Layout.Content id="admin-main" tabIndex={-1} className="admin-layout__content">
          {verified ? (
            <Suspense fallback={<PageSpinner />}>
              <Outlet />
            </Suspense>
          ) : (
            <PageSpinner label={CHECKING} />
          )}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

export default AdminLayout;
