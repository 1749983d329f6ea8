import { useEffect, useState } from 'react';
import { Alert, Button, Card, Flex, Form, Input, Typography } from 'antd';
import { LockOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import { Link, useNavigate } from 'react-router-dom';
import { MESSAGES, type AdminLoginBody } from '@countinghouse/proto';
import { api, errorBody, httpStatus } from '../../app/api';
import { adminUserReceived } from '../../app/admin-session';
import { useAppDispatch } from '../../app/store';
import { serverText, useToast, type ToastText } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import { asksForSecondFactor } from '../auth/second-factor';
import { adminAuthApi, useAdminLoginMutation } from './api';
import { ADMIN_ACCOUNT_SECURITY_PATH } from './paths';
import './admin-login.css';

/** The text to show for a failed login (spec section 8). */
function loginErrorText(error: unknown): ToastText {
  const status = httpStatus(error);
  const serverMessage = errorBody(error)?.message;
  if (status === 401) return serverMessage ? serverText(serverMessage) : MESSAGES.invalidCredentials;
  if (status === 429) return serverMessage ? serverText(serverMessage) : MESSAGES.tooManyRequests;
  return MESSAGES.loginFailedTryAgain;
}

type Values = Pick<AdminLoginBody, 'username' | 'password'> & { code?: string };

/**
 * Admin sign-in, served at both /admin/login and /admin-login. An account with two-factor sign-in on
 * gets a second step after a correct password (issue 32): the app's code, or one of its recovery codes.
 */
export function AdminLoginPage() {
  usePageTitle('Admin login');
  const [form] = Form.useForm<Values>();
  const [login, { isLoading }] = useAdminLoginMutation();
  const [failure, setFailure] = useState<ToastText | null>(null);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const toast = useToast();
  const [step, setStep] = useState<'password' | 'code'>('password');
  const [useRecovery, setUseRecovery] = useState(false);

  // Whoever signs in next must not see data cached for the previous admin.
  useEffect(() => {
    dispatch(api.util.resetApiState());
  }, [dispatch]);

  async function onFinish(values: Values) {
    setFailure(null);
    const code = values.code?.trim();
    const second = step === 'code' && code ? (useRecovery ? { recovery_code: code } : { totp_code: code.replace(/\s/g, '') }) : {};
    try {
      const reply = await login({ username: values.username.trim(), password: values.password, ...second }).unwrap();
      dispatch(adminUserReceived(reply.user));
      // Seed the verify cache so the admin layout paints at once; it still re-checks with the server.
      dispatch(
        adminAuthApi.util.upsertQueryData('adminSession', undefined, {
          success: true,
          user: reply.user,
          expires_at: reply.expires_at,
          ...(reply.two_factor_enrolment_required ? { two_factor_enrolment_required: true } : {}),
        }),
      );
      toast.success(MESSAGES.loginSuccessful, 'admin-session');
      // An account the practice requires a second factor of, without one yet, sets it up first.
      navigate(reply.two_factor_enrolment_required ? ADMIN_ACCOUNT_SECURITY_PATH : '/admin', { replace: true });
    } catch (error) {
      if (step === 'password' && asksForSecondFactor(error)) {
        setStep('code');
        return;
      }
      const text = loginErrorText(error);
      setFailure(text);
      toast.error(text, 'admin-login');
      if (step === 'code') form.setFieldValue('code', '');
      else form.setFieldValue('password', '');
    }
  }

  function backToPassword() {
    setStep('password');
    setUseRecovery(false);
    setFailure(null);
    form.setFieldsValue({ password: '', code: '' });
  }

  return (
    <main className="admin-login">
      <Card className="admin-login__card">
        <Typography.Title level={1} className="admin-login__title">
          Admin login
        </Typography.Title>
        <Typography.Paragraph type="secondary">Sign in to the practice back office.</Typography.Paragraph>
        {failure && <Alert type="error" showIcon title={failure} className="admin-login__alert" role="alert" />}
        <Form<Values>
          form={form}
          name="admin-login"
          layout="vertical"
          requiredMark={false}
          onFinish={onFinish}
          disabled={isLoading}
          autoComplete="on"
        >
          <Form.Item
            label="Username"
            name="username"
            rules={[{ required: true, whitespace: true, message: 'Please enter your username' }]}
            hidden={step === 'code'}
          >
            <Input prefix={<UserOutlined aria-hidden="true" />} autoFocus autoComplete="username" maxLength={100} />
          </Form.Item>
          <Form.Item
            label="Password"
            name="password"
            rules={[{ required: true, message: 'Please enter your password' }]}
            hidden={step === 'code'}
          >
            <Input.Password prefix={<LockOutlined aria-hidden="true" />} autoComplete="current-password" maxLength={200} />
          </Form.Item>
          {step === 'code' && (
            <>
              <Typography.Paragraph>
                {useRecovery ? 'Enter one of your recovery codes. Each works once.' : 'Enter the 6-digit code from your authenticator app.'}
              </Typography.Paragraph>
              <Form.Item
                key={useRecovery ? 'recovery' : 'totp'}
                label={useRecovery ? 'Recovery code' : 'Authentication code'}
                name="code"
                rules={
                  useRecovery
                    ? [{ required: true, whitespace: true, message: 'Please enter a recovery code' }]
                    : [{ required: true, pattern: /^\s*\d{3}\s?\d{3}\s*$/, message: 'Enter the 6-digit code from your app' }]
                }
              >
                <Input
                  autoFocus
                  autoComplete="one-time-code"
                  inputMode={useRecovery ? 'text' : 'numeric'}
                  maxLength={useRecovery ? 40 : 7}
                  prefix={<SafetyCertificateOutlined aria-hidden="true" />}
                />
              </Form.Item>
            </>
          )}
          <Button type="primary" htmlType="submit" block loading={isLoading}>
            {step === 'code' ? 'Verify' : 'Sign in'}
          </Button>
          {step === 'code' && (
            <Flex justify="space-between" wrap gap={8} className="admin-login__links">
              <Button
                type="link"
                onClick={() => {
                  setUseRecovery((r) => !r);
                  form.setFieldValue('code', '');
                }}
              >
                {useRecovery ? 'Use the code from my app' : 'Use a recovery code'}
              </Button>
              <Button type="link" onClick={backToPassword}>
                Start again
              </Button>
            </Flex>
          )}
        </Form>
        <Typography.Paragraph className="admin-login__back">
          <Link to="/">Back to Home</Link>
        </Typography.Paragraph>
      </Card>
    </main>
  );
}

export default AdminLoginPage;
