import { useState } from 'react';
import { Alert, Button, Form, Input, Result, Typography } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { formatDate, MESSAGES, type InvitationLookup } from '@countinghouse/proto';
import { errorBody } from '../../app/api';
import { AuthCard } from '../auth/AuthCard';
import { PageSpinner } from '../../shared/PageSpinner';
import { PasswordPairFields } from '../../shared/PasswordPairFields';
import { serverText, useToast, type ToastText } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import { useAcceptInvitationMutation, useInvitationLookupQuery } from './api';
import { RoleTag } from './roles';
import '../auth/auth.css';
import type { StaffLoginState } from './StaffLoginPage';

interface Values {
  first_name?: string;
  last_name?: string;
  password: string;
  confirm_password: string;
}

/** The staff sign-up page of an invitation link: /staff/signup?token=… */
export function StaffSignupPage() {
  usePageTitle('Staff registration');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const lookup = useInvitationLookupQuery(token, { skip: !token, refetchOnMountOrArgChange: true });

  if (!token) return <InvalidInvitation reason={MESSAGES.noInvitationToken} />;
  if (lookup.isLoading || lookup.isFetching) return <PageSpinner label={MESSAGES.validatingInvitation} />;
  if (lookup.isError || !lookup.data) {
    return (
      <Result
        status="error"
        title="We could not check your invitation"
        subTitle="The server did not answer. Check your connection and try again."
        extra={
          <Button type="primary" onClick={() => void lookup.refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  const invitation = lookup.data;
  if (!invitation.valid || !invitation.email || !invitation.role) {
    return <InvalidInvitation reason={invitation.message ? serverText(invitation.message) : MESSAGES.invalidOrExpiredInvitation} />;
  }
  return <SignupForm token={token} invitation={invitation as ValidInvitation} />;
}

function InvalidInvitation({ reason }: { reason: ToastText }) {
  return (
    <Result
      status="warning"
      title={<h1 className="staff-signup__invalid-title">{MESSAGES.invalidInvitationTitle}</h1>}
      subTitle={
        <>
          <Typography.Paragraph>{MESSAGES.invalidInvitationText}</Typography.Paragraph>
          <Typography.Text type="secondary">{reason}</Typography.Text>
        </>
      }
      extra={<Link to="/">{MESSAGES.returnToHome}</Link>}
    />
  );
}

type ValidInvitation = InvitationLookup & { email: string; role: NonNullable<InvitationLookup['role']> };

function SignupForm({ token, invitation }: { token: string; invitation: ValidInvitation }) {
  const [form] = Form.useForm<Values>();
  const [accept, { isLoading }] = useAcceptInvitationMutation();
  const [failure, setFailure] = useState<ToastText | null>(null);
  const navigate = useNavigate();
  const toast = useToast();

  async function onFinish(values: Values) {
    setFailure(null);
    try {
      const reply = await accept({
        token,
        email: invitation.email,
        password: values.password,
        confirm_password: values.confirm_password,
        first_name: values.first_name?.trim() || undefined,
        last_name: values.last_name?.trim() || undefined,
      }).unwrap();
      toast.success(serverText(reply.message), 'staff-signup');
      const state: StaffLoginState = { notice: reply.message };
      navigate('/staff/login', { replace: true, state });
    } catch (error) {
      const message = errorBody(error)?.message;
      const text = message ? serverText(message) : MESSAGES.failedToCreateAccount;
      setFailure(text);
      toast.error(text, 'staff-signup');
    }
  }

  return (
    <AuthCard
      title="Join the team"
      intro={
        <>
          You have been invited to join the practice with the role <RoleTag role={invitation.role} />.
          {invitation.expires_at && <> This invitation is valid until {formatDate(invitation.expires_at)}.</>}
        </>
      }
      footer={<Link to="/staff/login">Already have an account? Sign In</Link>}
    >
      {failure && <Alert type="error" showIcon role="alert" title={failure} className="auth-page__alert" />}
      <Form<Values> form={form} name="staff-signup" layout="vertical" requiredMark={false} onFinish={onFinish} disabled={isLoading}>
        <Form.Item label="Email" htmlFor="staff-signup_email">
          <Input
            id="staff-signup_email"
            type="email"
            value={invitation.email}
            readOnly
            variant="filled"
            prefix={<MailOutlined aria-hidden="true" />}
          />
        </Form.Item>
        <Form.Item label="First name (optional)" name="first_name">
          <Input autoFocus autoComplete="given-name" maxLength={100} />
        </Form.Item>
        <Form.Item label="Last name (optional)" name="last_name">
          <Input autoComplete="family-name" maxLength={100} />
        </Form.Item>
        <PasswordPairFields />
        <Button type="primary" htmlType="submit" block loading={isLoading}>
          Complete Registration
        </Button>
      </Form>
    </AuthCard>
  );
}
