import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { homeFor, MESSAGES } from '@countinghouse/proto';
import { AuthCard } from '../auth/AuthCard';
import { PersonLoginForm } from '../auth/PersonLoginForm';
import { safeRedirect } from '../auth/session';
import { useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';

const CLIENT_HOME = '/client-dashboard';

/**
 * Sign-in at /login for clients and the practice's people; `?redirect=/somewhere` (same site only)
 * says where to go next, else a client goes to the dashboard and staff-side people to My work.
 */
export function LoginPage() {
  usePageTitle('Log in');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const toast = useToast();
  const asked = params.get('redirect');
  // After 'Account created successfully! Please sign in.' the e-mail just used is filled in (issue 33).
  const signedUpAs = (useLocation().state as { email?: unknown } | null)?.email;

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
        initialEmail={typeof signedUpAs === 'string' ? signedUpAs : undefined}
        onSignedIn={(reply) => {
          toast.success(MESSAGES.loginSuccessful, 'person-session');
          // Each person to their own place (issue 26): staff-side people (an accountant too) to My work.
          const home = homeFor(reply.roles) === '/work' ? '/work' : CLIENT_HOME;
          navigate(safeRedirect(asked, home), { replace: true });
        }}
      />
    </AuthCard>
  );
}
