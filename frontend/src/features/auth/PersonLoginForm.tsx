import { FORM_RULES } from '../../shared/form-rules';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, Button, Flex, Form, Input, Typography } from 'antd';
import { KeyOutlined, LockOutlined, MailOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { type LoginBody, type LoginReply } from '@countinghouse/proto';
import { personSessionReset } from '../../app/person-session';
import { useAppDispatch } from '../../app/store';
import { useToast } from '../../shared/toast';
import { authApi, usePersonLoginMutation } from './api';
import { usePasskeySignInMutation, usePasskeySignInOptionsMutation } from './two-factor-api';
import { cancelled, signWithPasskey, webAuthnAvailable } from './webauthn';
import { forgetPrivateData, personLoginFailure, type LoginFailure } from './session';
import { asksForSecondFactor } from './second-factor';

type Values = Pick<LoginBody, 'email' | 'password'> & { code?: string };

export { asksForSecondFactor };

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
  const navigate = useNavigate();
  // After a correct password for an account with two-factor sign-in: the code (or a recovery code).
  const [step, setStep] = useState<'password' | 'code'>('password');
  const [useRecovery, setUseRecovery] = useState(false);

  const [passkeyOptions] = usePasskeySignInOptionsMutation();
  const [passkeySignIn] = usePasskeySignInMutation();
  const [passkeyBusy, setPasskeyBusy] = useState(false);

  /** The same steps as after a password: forget the last person's data, seed "who am I", go on. */
  function signedIn(reply: LoginReply) {
    dispatch(forgetPrivateData());
    dispatch(personSessionReset());
    const { success: _s, message: _m, access_token: _t, ...me } = reply;
    dispatch(authApi.util.upsertQueryData('me', undefined, me));
    if (reply.two_factor_enrolment_required) {
      navigate('/account/security', { replace: true });
      return;
    }
    onSignedIn(reply);
  }

  async function withPasskey() {
    setFailure(null);
    setPasskeyBusy(true);
    try {
      const o = await passkeyOptions().unwrap();
      const response = await signWithPasskey(o.options);
      signedIn(await passkeySignIn({ challenge_id: o.challenge_id, response, portal }).unwrap());
    } catch (error) {
      if (cancelled(error)) return;
      const f = personLoginFailure(error);
      setFailure(f);
      if (f.title) toast.notifyError(f.title, f.text, 'person-login');
      else toast.error(f.text, 'person-login');
    } finally {
      setPasskeyBusy(false);
    }
  }

  async function onFinish(values: Values) {
    setFailure(null);
    const code = values.code?.trim();
    const second = step === 'code' && code ? (useRecovery ? { recovery_code: code } : { totp_code: code.replace(/\s/g, '') }) : {};
    try {
      const reply = await login({ email: values.email.trim(), password: values.password, portal, ...second }).unwrap();
      // Whoever signs in must not see data cached for the previous person (or admin); "who am I" is
      // seeded so the next page paints at once; a person the practice requires a second factor of and
      // who has none yet goes to enrolment before anything else.
      signedIn(reply);
    } catch (error) {
      if (step === 'password' && asksForSecondFactor(error)) {
        setStep('code');
        return;
      }
      const f = personLoginFailure(error);
      setFailure(f);
      if (f.title) toast.notifyError(f.title, f.text, 'person-login');
      else toast.error(f.text, 'person-login');
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
        <Form.Item label="Email" name="email" rules={FORM_RULES.email('Please enter your e-mail address')} hidden={step === 'code'}>
          <Input
            type="email"
            prefix={<MailOutlined aria-hidden="true" />}
            autoFocus={!initialEmail}
            autoComplete="username"
            maxLength={254}
          />
        </Form.Item>
        <Form.Item
          label="Password"
          name="password"
          rules={[{ required: true, message: 'Please enter your password' }]}
          hidden={step === 'code'}
        >
          <Input.Password
            prefix={<LockOutlined aria-hidden="true" />}
            autoFocus={Boolean(initialEmail)}
            autoComplete="current-password"
            maxLength={200}
          />
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
              rules={[{ required: true, message: useRecovery ? 'Please enter a recovery code' : 'Please enter the code from your app' }]}
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
          {step === 'code' ? 'Verify' : submitLabel}
        </Button>
        {step === 'password' && webAuthnAvailable() && (
          <Button
            block
            icon={<KeyOutlined aria-hidden="true" />}
            className="auth-page__passkey"
            onClick={() => void withPasskey()}
            loading={passkeyBusy}
          >
            Use a passkey instead
          </Button>
        )}
        {step === 'code' && (
          <Flex justify="space-between" wrap gap={8} className="auth-page__links">
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
    </>
  );
}
