import { Suspense, useEffect, useRef } from 'react';
import { Button, Card, Flex, Result, Typography } from 'antd';
import { LogoutOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { hasPermission, MESSAGES, STAFF_MANAGEMENT_ROLES, type Me, type Role } from '@countinghouse/proto';
import { httpStatus } from '../../app/api';
import { lazyNamed } from '../../app/lazy-named';
import { personSessionReset, selectPersonSessionEnd } from '../../app/person-session';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { useMeQuery } from '../auth/api';
import { ChangePasswordButton } from '../auth/ChangePasswordButton';
import { firstNameOrEmail, hasStaffPortalAccess, usePersonSignOut } from '../auth/session';
import { ButtonLink } from '../../shared/ButtonLink';
import { PageSpinner } from '../../shared/PageSpinner';
import { useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import { PortalClientDatabase, PortalClientDocuments, PortalLeads, PortalStats } from './portal-slots';
import { RoleTag } from './roles';
import './staff-portal.css';
import { ResponsiveTabs } from '../../shared/ResponsiveTabs';

const CHECKING = 'Checking access…';

// Only admins and managers see it: others never download it.
const StaffManagementPanel = lazyNamed(() => import('./StaffManagementPanel'), 'StaffManagementPanel');
const EngagementLettersPanel = lazyNamed(() => import('../engagement/LettersPanel'), 'EngagementLettersPanel');
const deadlinesArea = () => import('../deadlines');
const DeadlinesWorkspace = lazyNamed(deadlinesArea, 'DeadlinesWorkspace');
const CalendarFeedCard = lazyNamed(deadlinesArea, 'CalendarFeedCard');
const RequestsWorkspace = lazyNamed(() => import('../requests/RequestsWorkspace'), 'RequestsWorkspace');
const AmlWorkspace = lazyNamed(() => import('../aml/AmlWorkspace'), 'AmlWorkspace');

/**
 * The staff portal at /staff/dashboard. Who may enter is the server's answer to GET /auth/me
 * (re-checked when the window regains focus): signed out → /staff-login; signed in without an
 * admin, manager or staff grant → told so, signed out, /staff-login.
 */
export function StaffDashboardPage() {
  usePageTitle('Staff dashboard');
  const me = useMeQuery(undefined, { refetchOnMountOrArgChange: true, refetchOnFocus: true });
  const ended = useAppSelector(selectPersonSessionEnd);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const toast = useToast();
  const { signOut, isSigningOut } = usePersonSignOut();

  const status = me.isError ? httpStatus(me.error) : undefined;
  const signedOut = ended !== null || status === 401 || status === 403;
  const notAllowed = !signedOut && me.data !== undefined && !hasStaffPortalAccess(me.data);
  const mustEnrol = me.data?.two_factor_enrolment_required === true;

  const left = useRef(false);
  useEffect(() => {
    if (left.current) return;
    if (signedOut) {
      left.current = true;
      toast.error(MESSAGES.pleaseLogInStaff, 'person-session');
      dispatch(personSessionReset());
      navigate('/staff-login', { replace: true });
    } else if (notAllowed) {
      left.current = true;
      toast.error(MESSAGES.noAccessToArea, 'person-session');
      void signOut({ to: '/staff-login', announce: false });
    } else if (mustEnrol) {
      // The practice requires two-factor sign-in and this person has none yet (issue 32).
      left.current = true;
      navigate('/account/security', { replace: true });
    }
  }, [signedOut, notAllowed, mustEnrol, dispatch, navigate, toast, signOut]);

  if (signedOut || notAllowed || mustEnrol) return <PageSpinner label={CHECKING} />;
  if (me.isError) {
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
  }
  if (!me.data) return <PageSpinner label={CHECKING} />;

  return <Portal me={me.data} onSignOut={() => void signOut({ to: '/staff-login' })} isSigningOut={isSigningOut} />;
}

function Portal({ me, onSignOut, isSigningOut }: { me: Me; onSignOut: () => void; isSigningOut: boolean }) {
  const role = me.staff_role as Role;
  const canManageStaff = (STAFF_MANAGEMENT_ROLES as readonly Role[]).includes(role);
  // ?tab=requests opens that section (the client record links to the Requests page so).
  const [search] = useSearchParams();

  const tabs = [
    { key: 'clients', label: 'Client Database', children: <PortalClientDatabase /> },
    {
      key: 'documents',
      label: 'Client Documents',
      children: <PortalClientDocuments />,
    },
    { key: 'leads', label: 'Leads', children: <PortalLeads /> },
    {
      key: 'deadlines',
      label: 'Deadlines',
      children: (
        <Suspense fallback={<PageSpinner />}>
          <Flex vertical gap={16}>
            <DeadlinesWorkspace realm="user" clientFilter={false} />
            <CalendarFeedCard realm="user" />
          </Flex>
        </Suspense>
      ),
    },
    // The AML files (aml.view): managers, administrators and the MLRO, who signs them off here.
    ...(hasPermission(me.roles, 'aml.view')
      ? [
          {
            key: 'aml',
            label: 'AML',
            children: (
              <Suspense fallback={<PageSpinner />}>
                <AmlWorkspace realm="user" />
              </Suspense>
            ),
          },
        ]
      : []),
    {
      key: 'requests',
      label: 'Requests',
      children: (
        <Suspense fallback={<PageSpinner />}>
          <RequestsWorkspace realm="user" templates={hasPermission(me.roles, 'requests.templates')} />
        </Suspense>
      ),
    },
    {
      key: 'letters',
      label: 'Engagement letters',
      children: (
        <Suspense fallback={<PageSpinner />}>
          <EngagementLettersPanel realm="user" />
        </Suspense>
      ),
    },
    ...(canManageStaff
      ? [
          {
            key: 'staff',
            label: 'Staff Management',
            children: (
              <Suspense fallback={<PageSpinner />}>
                <StaffManagementPanel
                  realm="user"
                  roles={me.roles}
                  currentUserId={me.user.user_id}
                  canReadMailLog={me.roles.includes('admin')}
                />
              </Suspense>
            ),
          },
        ]
      : []),
  ];

  return (
    <Flex vertical gap={24} className="staff-portal">
      <Flex wrap justify="space-between" align="center" gap={16}>
        <div>
          <Typography.Title level={1} className="staff-portal__title">
            Staff Portal
          </Typography.Title>
          <Flex align="center" gap={8} wrap>
            <Typography.Text>Welcome back, {firstNameOrEmail(me)}</Typography.Text>
            <RoleTag role={role} />
          </Flex>
        </div>
        <Flex gap={8} wrap>
          <ButtonLink to="/work">My work</ButtonLink>
          <ChangePasswordButton realm="user" staff />
          <ButtonLink to="/account/security">Account security</ButtonLink>
          <Button icon={<LogoutOutlined />} onClick={onSignOut} loading={isSigningOut}>
            Logout
          </Button>
        </Flex>
      </Flex>

      <PortalStats />

      <Card>
        <ResponsiveTabs items={tabs} defaultActiveKey={tabs.find((t) => t.key === search.get('tab'))?.key ?? 'clients'} label="Section" />
      </Card>
    </Flex>
  );
}

export default StaffDashboardPage;
