import { useEffect, useState } from 'react';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Link, useNavigate } from 'react-router-dom';
import { MESSAGES, type AdminLoginBody } from '@countinghouse/proto';
import { api, errorBody, httpStatus } from '../../app/api';
import { adminUserReceived } from '../../app/admin-session';
import { useAppDispatch } from '../../app/store';
import { serverText, useToast, type ToastText } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import { adminAuthApi, useAdminLoginMutation } from './api';
import './admin-login.css';

/** The text to show for a failed login (spec section 8). */
function loginErrorText(error: unknown): ToastText {
  const status = httpStatus(error);
  const serverMessage = errorBody(error)?.message;
  if (status === 401) return serverMessage ? serverText(serverMessage) : MESSAGES.invalidCredentials;
  if (status === 429) return serverMessage ? serverText(serverMessage) : MESSAGES.tooManyRequests;
  return MESSAGES.loginFailedTryAgain;
}

/** Admin sign-in, served at both /admin/login and /admin-login. */
export function AdminLoginPage() {
  usePageTitle('Admin login');
  const [form] = Form.useForm<AdminLoginBody>();
  const [login, { isLoading }] = useAdminLoginMutation();
  const [failure, setFailure] = useState<ToastText | null>(null);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const toast = useToast();

  // Whoever signs in next must not see data cached for the previous admin.
  useEffect(() => {
    dispatch(api.util.resetApiState());
  }, [dispatch]);

  async function onFinish(values: AdminLoginBody) {
    setFailure(null);
    try {
      const reply = await login({ username: values.username.trim(), password: values.password }).unwrap();
      dispatch(adminUserReceived(reply.user));
      // Seed the verify cache so the admin layout paints at once; it still re-checks with the server.
      dispatch(
        adminAuthApi.util.upsertQueryData('adminSession', undefined, {
          success: true,
          user: reply.user,
          expires_at: reply.expires_at,
        }),
      );
      toast.success(MESSAGES.loginSuccessful, 'admin-session');
      navigate('/admin', { replace: true });
    } catch (error) {
      const text = loginErrorText(error);
      setFailure(text);
      toast.error(text, 'admin-login');
      form.setFieldValue('password', '');
    }
  }

  return (
    <main className="admin-login">
      <Card className="admin-login__card">
        <Typography.Title level={1} className="admin-login__title">
          Admin login
        </Typography.Title>
        <Typography.Paragraph type="secondary">Sign in to the practice back office.</Typography.Paragraph>
        {failure && <Alert type="error" showIcon title={failure} className="admin-login__alert" role="alert" />}
        <Form<AdminLoginBody>
          form={form}
          name="admin-login"
          layout="vertical"
          requiredMark={false}
          onFinish={onFinish}
          disabled={isLoading}
          autoComplete="on"
        >
          <Form.Item label="Username" name="username" rules={[{ required: true, whitespace: true, message: 'Please enter your username' }]}>
            <Input prefix={<UserOutlined aria-hidden="true" />} autoFocus autoComplete="username" maxLength={100} />
          </Form.Item>
          <Form.Item label="Password" name="password" rules={[{ required: true, message: 'Please enter your password' }]}>
            <Input.Password prefix={<LockOutlined aria-hidden="true" />} autoComplete="current-password" maxLength={200} />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={isLoading}>
            Sign in
          </Button>
        </Form>
        <Typography.Paragraph className="admin-login__back">
          <Link to="/">Back to Home</Link>
        </Typography.Paragraph>
      </Card>
    </main>
  );
}

export default AdminLoginPage;
