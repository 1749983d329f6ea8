import { useState } from 'react';
import { Alert, Typography } from 'antd';
import { MESSAGES } from '@countinghouse/proto';
import { useNavigate } from 'react-router-dom';
import { TwoFactorCard } from '../auth/AccountSecurityPage';
import { PageHeader } from '../../shared/PageHeader';
import { usePageTitle } from '../../shared/use-page-title';
import { useAdminRefreshMutation, useAdminSessionQuery } from './api';
import '../auth/auth.css';

/**
 * Account security for the admin panel's own account (issue 32): two-factor sign-in with an
 * authenticator app, the same card as people's page. An account the practice's rule holds to it
 * arrives here from sign-in and reaches nothing else until it is on.
 */
export function AdminAccountSecurityPage() {
  usePageTitle('Account security');
  const session = useAdminSessionQuery();
  const [refresh] = useAdminRefreshMutation();
  const [enrolledHere, setEnrolledHere] = useState(false);
  const navigate = useNavigate();
  const required = session.data?.two_factor_enrolment_required === true;

  async function refreshAfterEnrolment() {
    setEnrolledHere(true);
    // The session's next access token carries no enrolment restriction.
    await refresh()
      .unwrap()
      .catch(() => undefined);
  }

  return (
    <div className="account-security">
      <PageHeader title="Account security" />
      <Typography.Paragraph type="secondary">
        This admin panel account{session.data ? ` (${session.data.user.username})` : ''} signs in at the admin login with its password and,
        once set up, a code from an authenticator app.
      </Typography.Paragraph>
      {required && !enrolledHere && (
        <Alert
          type="warning"
          showIcon
          className="auth-page__alert"
          title="Two-factor sign-in is required"
          description={MESSAGES.twoFactorEnrolmentRequired}
        />
      )}
      <TwoFactorCard
        realm="admin"
        onEnrolled={refreshAfterEnrolment}
        onFreshCodesDone={() => {
          // The session check again (the layout then shows the whole panel), then the dashboard.
          void session.refetch().finally(() => navigate('/admin', { replace: true }));
        }}
      />
    </div>
  );
}

export default AdminAccountSecurityPage;
