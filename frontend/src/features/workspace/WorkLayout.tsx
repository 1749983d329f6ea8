import { Suspense, useEffect, useRef } from 'react';
import { Button, Layout, Result } from 'antd';
import { LogoutOutlined } from '@ant-design/icons';
import { Link, NavLink, Outlet, useNavigate, useOutletContext } from 'react-router-dom';
import { hasPermission, MESSAGES, type Me, type Role } from '@countinghouse/proto';
import { httpStatus } from '../../app/api';
import { personSessionReset, selectPersonSessionEnd } from '../../app/person-session';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { useMeQuery } from '../auth/api';
import { firstNameOrEmail, hasStaffPortalAccess, usePersonSignOut } from '../auth/session';
import { PageSpinner } from '../../shared/PageSpinner';
import { serverText, useToast } from '../../shared/toast';
import { ClientRecordPage } from './ClientRecordPage';
import { MyWorkPage } from './MyWorkPage';
import './workspace.css';

/** Who works in the workspace: every staff-side role (issue 26), the accountant included. */
export const WORKSPACE_ROLES: readonly Role[] = ['admin', 'manager', 'staff', 'accountant', 'mlro'];

export const hasWorkspaceAccess = (me: Pick<Me, 'roles'> | undefined) => Boolean(me?.roles.some((r) => WORKSPACE_ROLES.includes(r)));

const CHECKING = 'Checking access…';

/**
 * The staff-side workspace at /work: My work and the client records, under a person's session
 * (signed in at /login or /staff-login). Signed out → /login; a client → their dashboard.
 */
export function WorkLayout() {
  const me = useMeQuery(undefined, { refetchOnMountOrArgChange: true, refetchOnFocus: true });
  const ended = useAppSelector(selectPersonSessionEnd);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const toast = useToast();
  const { signOut, isSigningOut } = usePersonSignOut();

  const status = me.isError ? httpStatus(me.error) : undefined;
  const signedOut = ended !== null || status === 401 || status === 403;
  const notAllowed = !signedOut && me.data !== undefined && !hasWorkspaceAccess(me.data);
  const mustEnrol = me.data?.two_factor_enrolment_required === true;

  const left = useRef(false);
  useEffect(() => {
    if (left.current) return;
    if (signedOut) {
      left.current = true;
      toast.error(serverText('Please log in to see your work'), 'person-session');
      dispatch(personSessionReset());
      navigate('/login?redirect=/work', { replace: true });
    } else if (notAllowed) {
      left.current = true;
      toast.error(MESSAGES.noAccessToArea, 'person-session');
      navigate('/client-dashboard', { replace: true });
    } else if (mustEnrol) {
      // The practice requires two-factor sign-in and this person has none yet (issue 32).
      left.current = true;
      navigate('/account/security', { replace: true });
    }
  }, [signedOut, notAllowed, mustEnrol, dispatch, navigate, toast]);

  if (signedOut || notAllowed || mustEnrol) return <PageSpinner fullScreen label={CHECKING} />;
  if (me.isError)
    return (
      <Result
        status="error"
        title="We could not check your access"
        subTitle="The server did not answer. Check your connection and try again."
        extra={
          <Button type="primary" onClick={() => void me.refetch()}>
            Try again
          </Button>
        }
      />
    );
  if (!me.data) return <PageSpinner fullScreen label={CHECKING} />;

  return (
    <Layout className="work-layout">
      <a href="#work-main" className="skip-link">
        Skip to main content
      </a>
      <Layout.Header className="work-layout__header">
        <Link to="/work" className="work-layout__brand">
          Countinghouse
        </Link>
        <nav aria-label="Workspace" className="work-layout__nav">
          <NavLink to="/work" end>
            My work
          </NavLink>
          {hasPermission(me.data.roles, 'client_jobs') && <NavLink to="/work/jobs">Jobs</NavLink>}
          {hasPermission(me.data.roles, 'mtd') && <NavLink to="/work/mtd">MTD</NavLink>}
          {hasStaffPortalAccess(me.data) && <Link to="/staff/dashboard">Staff portal</Link>}
          <NavLink to="/account/security">Account security</NavLink>
        </nav>
        <span>{firstNameOrEmail(me.data)}</span>
        <Button icon={<LogoutOutlined />} onClick={() => void signOut({ to: '/login' })} loading={isSigningOut}>
          Sign out
        </Button>
      </Layout.Header>
      <Layout.Content id="work-main" tabIndex={-1} className="work-layout__content">
        <Suspense fallback={<PageSpinner />}>
          <Outlet context={me.data} />
        </Suspense>
      </Layout.Content>
    </Layout>
  );
}

/** /work: My work for the signed-in person. */
export function WorkMyWorkPage() {
  const me = useOutletContext<Me>();
  return <MyWorkPage realm="user" base="/work" userId={me.user.user_id} canSeeEveryone={hasPermission(me.roles, 'work.everyone')} />;
}

/** /work/clients/:id: the client record under the person's session. */
export function WorkClientRecordPage() {
  return <ClientRecordPage realm="user" base="/work" />;
}

export default WorkLayout;
