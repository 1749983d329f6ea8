import { FORM_RULES } from '../../shared/form-rules';
import { useState } from 'react';
import { Alert, Button, Form, Input, Result } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router-dom';
import { LIMITS, MESSAGES } from '@countinghouse/proto';
import { errorBody } from '../../app/api';
import { ButtonLink } from '../../shared/ButtonLink';
import { PageSpinner } from '../../shared/PageSpinner';
import { PasswordPairFields } from '../../shared/PasswordPairFields';
import { usePageTitle } from '../../shared/use-page-title';
import { AuthCard } from './AuthCard';
import { useForgotPasswordMutation, useResetLookupQuery, useResetPasswordMutation } from './api';

/** Where "back to sign-in" goes: the staff portal's page when the person came from it. */
function loginPathFor(from: string | null): string {
  return from === 'staff' ? '/staff-login' : '/login';
}

/**
 * /forgot-password (?from=staff from the staff login): asks for the e-mail and always answers with the
 * same neutral message, whether or not the e-mail has an account.
 */
export function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  const [params] = useSearchParams();
  const login = loginPathFor(params.get('from'));
  const [request, { isLoading }] = useForgotPasswordMutation();
  const [answer, setAnswer] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function onFinish(values: { email: string }) {
    setFailure(null);
    try {
      setAnswer((await request({ email: values.email.trim() }).unwrap()).message);
    } catch (error) {
      setFailure(errorBody(error)?.message ?? MESSAGES.unexpectedError);
    }
  }

  return (
    <AuthCard
      title="Forgot password"
      intro={`Enter the e-mail address of your account. We will send a link to choose a new password; it works once, for ${LIMITS.passwordResetMinutes} minutes.`}
      footer={<Link to={login}>Back to sign in</Link>}
    >
      {answer ? (
        <Alert type="success" showIcon role="status" title={answer} />
      ) : (
        <>
          {failure && <Alert type="error" showIcon role="alert" className="auth-page__alert" title={failure} />}
          <Form name="forgot-password" layout="vertical" requiredMark={false} onFinish={onFinish} disabled={isLoading}>
            <Form.Item label="Email" name="email" rules={FORM_RULES.email('Please enter your e-mail address')}>
              <Input type="email" prefix={<MailOutlined aria-hidden="true" />} autoFocus autoComplete="username" maxLength={254} />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={isLoading}>
              Send reset link
            </Button>
          </Form>
        </>
      )}
    </AuthCard>
  );
}

/** /reset-password?token=…: checks the link, then sets the new password (every session of the account ends). */
export function ResetPasswordPage() {
  usePageTitle('Reset password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const lookup = useResetLookupQuery(token, { skip: !token });
  const [reset, { isLoading }] = useResetPasswordMutation();
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const login = lookup.data?.is_staff ? '/staff-login' : '/login';

  if (token && lookup.isLoading) return <PageSpinner label="Checking your link…" />;
  if (done) {
    return (
      <Result
        status="success"
        title={done}
        extra={
          <ButtonLink to={login} type="primary">
            Sign in
          </ButtonLink>
        }
      />
    );
  }
  if (!token || lookup.isError || !lookup.data?.valid) {
    return (
      <Result
        status="warning"
        title="This link cannot be used"
        subTitle={lookup.isError ? MESSAGES.unexpectedError : (lookup.data?.message ?? MESSAGES.passwordResetInvalid)}
        extra={
          <ButtonLink to="/forgot-password" type="primary">
            Ask for a new link
          </ButtonLink>
        }
      />
    );
  }

  async function onFinish(values: { password: string; confirm_password: string }) {
    setFailure(null);
    try {
      setDone((await reset({ token, password: values.password, confirm_password: values.confirm_password }).unwrap()).message);
    } catch (error) {
      setFailure(errorBody(error)?.message ?? MESSAGES.unexpectedError);
    }
  }

  return (
    <AuthCard
      title="Choose a new password"
      // One password rule for everyone (issue 32).
      intro="At least 6 characters, and not one of the most commonly used passwords. Every session of your account will be signed out."
      footer={<Link to={login}>Back to sign in</Link>}
    >
      {failure && <Alert type="error" showIcon role="alert" className="auth-page__alert" title={failure} />}
      <Form name="reset-password" layout="vertical" requiredMark={false} onFinish={onFinish} disabled={isLoading}>
        <PasswordPairFields label="New password" />
        <Button type="primary" htmlType="submit" block loading={isLoading}>
          Set new password
        </Button>
      </Form>
    </AuthCard>
  );
}
