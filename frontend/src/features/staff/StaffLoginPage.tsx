import { Alert } from 'antd';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { MESSAGES } from '@countinghouse/proto';
import { AuthCard } from '../auth/AuthCard';
import { PersonLoginForm } from '../auth/PersonLoginForm';
import { useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';

/** What the staff sign-up page hands over: the server's success message, shown once. */
export interface StaffLoginState {
  notice?: string;
}

/** Staff sign-in at /staff-login and /staff/login: only admin, manager and staff get in. */
export function StaffLoginPage() {
  usePageTitle('Staff login');
  const navigate = useNavigate();
  const location = useLocation();
  const toast = useToast();
  const notice = (location.state as StaffLoginState | null)?.notice;

  return (
    <AuthCard
      title="Staff login"
      intro="Sign in to the staff portal."
      footer={
        <>
          <Link to="/forgot-password?from=staff">Forgot password?</Link>
          <br />
          <Link to="/">Back to Home</Link>
        </>
      }
    >
      {notice && <Alert type="success" showIcon title={notice} className="auth-page__alert" />}
      <PersonLoginForm
        portal="staff"
        submitLabel="Sign in"
        onSignedIn={() => {
          toast.success(MESSAGES.welcomeBack, 'person-session');
          navigate('/staff/dashboard', { replace: true });
        }}
      />
    </AuthCard>
  );
}
