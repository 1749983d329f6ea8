import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { MESSAGES } from '@countinghouse/proto';
import { AuthCard } from '../auth/AuthCard';
import { PersonLoginForm } from '../auth/PersonLoginForm';
import { safeRedirect } from '../auth/session';
import { useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';

const CLIENT_HOME = '/client-dashboard';

/** Client sign-in at /login; `?redirect=/somewhere` (same site only) says where to go next. */
export function LoginPage() {
  usePageTitle('Log in');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const toast = useToast();
  const next = safeRedirect(params.get('redirect'), CLIENT_HOME);

  return (
    <AuthCard
      title="Log in"
      intro="Sign in to your client dashboard."
      footer={
        <>
          <Link to="/forgot-password">Forgot password?</Link>
          <br />
          New here? <Link to="/signup">Create an account</Link>
          <br />
          <Link to="/">Back to Home</Link>
        </>
      }
    >
      <PersonLoginForm
        portal="client"
        submitLabel="Log in"
        onSignedIn={() => {
          toast.success(MESSAGES.loginSuccessful, 'person-session');
          navigate(next, { replace: true });
        }}
      />
    </AuthCard>
  );
}
