import { FORM_RULES } from '../../shared/form-rules';
import { useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { type LoginBody, type LoginReply } from '@countinghouse/proto';
import { personSessionReset } from '../../app/person-session';
import { useAppDispatch } from '../../app/store';
import { useToast } from '../../shared/toast';
import { authApi, usePersonLoginMutation } from './api';
import { forgetPrivateData, personLoginFailure, type LoginFailure } from './session';

type Values = Pick<LoginBody, 'email' | 'password'>;

/**
 * E-mail and password sign-in for people. `portal: 'staff'` makes the server refuse (403) anyone
 * without staff access. Enter submits; the e-mail field has focus on arrival.
 */
export function PersonLoginForm({
  portal,
  submitLabel,
  onSignedIn,
  initialEmail,
}: {
  portal: 'staff' | 'client';
  submitLabel: string;
  onSignedIn: (reply: LoginReply) => void;
  /** The e-mail just used to sign up (issue 33): filled in, and the password field has focus. */
  initialEmail?: string;
}) {
  const [form] = Form.useForm<Values>();
  const [login, { isLoading }] = usePersonLoginMutation();
  const [failure, setFailure] = useState<LoginFailure | null>(null);
  const dispatch = useAppDispatch();
  const toast = useToast();

  async function onFinish(values: Values) {
    setFailure(null);
    try {
      const reply = await login({ email: values.email.trim(), password: values.password, portal }).unwrap();
      // Whoever signs in must not see data cached for the previous person (or admin).
      dispatch(forgetPrivateData());
      dispatch(personSessionReset());
      const { success: _s, message: _m, access_token: _t, ...me } = reply;
      // Seed "who am I" so the next page paints at once; it re-checks with the server anyway.
      dispatch(authApi.util.upsertQueryData('me', undefined, me));
      onSignedIn(reply);
    } catch (error) {
      const f = personLoginFailure(error);
      setFailure(f);
      if (f.title) toast.notifyError(f.title, f.text, 'person-login');
      else toast.error(f.text, 'person-login');
      form.setFieldValue('password', '');
    }
  }

  return (
    <>
      {failure && (
        <Alert
          type="error"
          showIcon
          role="alert"
          className="auth-page__alert"
          title={failure.title ?? failure.text}
          description={failure.title ? failure.text : undefined}
        />
      )}
      <Form<Values>
        form={form}
        name={`${portal}-login`}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        disabled={isLoading}
        initialValues={initialEmail ? { email: initialEmail } : undefined}
      >
        <Form.Item label="Email" name="email" rules={FORM_RULES.email('Please enter your e-mail address')}>
          <Input
            type="email"
            prefix={<MailOutlined aria-hidden="true" />}
            autoFocus={!initialEmail}
            autoComplete="username"
            maxLength={254}
          />
        </Form.Item>
        <Form.Item label="Password" name="password" rules={[{ required: true, message: 'Please enter your password' }]}>
          <Input.Password
            prefix={<LockOutlined aria-hidden="true" />}
            autoFocus={Boolean(initialEmail)}
            autoComplete="current-password"
            maxLength={200}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={isLoading}>
          {submitLabel}
        </Button>
      </Form>
    </>
  );
}
