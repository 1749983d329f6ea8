import { NAME_MAX } from '@countinghouse/proto';
import { FORM_RULES } from '../../shared/form-rules';
import { useState } from 'react';
import { Alert, Button, Form, Input, Radio } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  BUSINESS_TYPE_LABELS,
  BUSINESS_TYPES,
  findPackage,
  formatGBP,
  MESSAGES,
  phoneProblem,
  SIGNUP_MESSAGES,
  validateCompanyNumber,
  type BusinessType,
  type SignupBody,
} from '@countinghouse/proto';
import { errorBody, httpStatus } from '../../app/api';
import { AuthCard } from '../auth/AuthCard';
import { usePersonSignupMutation } from '../auth/api';
import { safeRedirect } from '../auth/session';
import { PasswordPairFields } from '../../shared/PasswordPairFields';
import { serverText, useToast, type ToastText } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';

interface Values {
  business_type?: BusinessType;
  company_number?: string;
  phone?: string;
  first_name?: string;
  last_name?: string;
  company_name?: string;
  email: string;
  password: string;
  confirm_password: string;
}

/** What to show when sign-up fails: the server's reason for a 400/409, else the spec's text. */
function signupFailureText(error: unknown): ToastText {
  const status = httpStatus(error);
  const message = errorBody(error)?.message;
  if ((status === 400 || status === 409 || status === 429) && message) return serverText(message);
  return MESSAGES.failedToCreateAccount;
}

/** Client sign-up at /signup. */
export function SignupPage() {
  usePageTitle('Sign up');
  const [form] = Form.useForm<Values>();
  const [signup, { isLoading }] = usePersonSignupMutation();
  const [failure, setFailure] = useState<ToastText | null>(null);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // Where the visitor was going (a chosen package's checkout): carried on to the sign-in page.
  const redirect = safeRedirect(params.get('redirect'), '');
  // The package chosen on the way here (/checkout?package=…), shown so the visitor knows it is kept.
  const chosen = findPackage(new URLSearchParams(redirect.split('?')[1] ?? '').get('package'));
  const toast = useToast();

  async function onFinish(values: Values) {
    setFailure(null);
    const body: SignupBody = {
      email: values.email.trim(),
      password: values.password,
      first_name: values.first_name?.trim() || undefined,
      last_name: values.last_name?.trim() || undefined,
      company_name: values.company_name?.trim() || undefined,
      business_type: values.business_type,
      company_number: values.company_number?.trim() || undefined,
      phone: values.phone?.trim() || undefined,
    };
    try {
      await signup(body).unwrap();
      toast.success(MESSAGES.accountCreated, 'signup');
      // The sign-in page fills in this e-mail (router state: never in the address) and returns to the package.
      navigate(redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login', { replace: true, state: { email: body.email } });
    } catch (error) {
      const text = signupFailureText(error);
      setFailure(text);
      if (text === MESSAGES.failedToCreateAccount) toast.error(text, 'signup');
      else toast.notifyError(MESSAGES.failedToCreateAccount, text, 'signup');
    }
  }

  return (
    <AuthCard
      title="Create your account"
      intro={chosen ? SIGNUP_MESSAGES.choosing(chosen.name) : 'Sign up to choose a package and manage your accounts online.'}
      footer={
        <>
          Already have an account? <Link to="/login">Log in</Link>
        </>
      }
    >
      {failure && <Alert type="error" showIcon role="alert" title={failure} className="auth-page__alert" />}
      <Form<Values> form={form} name="signup" layout="vertical" requiredMark="optional" onFinish={onFinish} disabled={isLoading}>
        {chosen && (
          <p className="auth-page__package">
            <strong>{chosen.name}</strong>: {formatGBP(chosen.monthlyFee)} per month
          </p>
        )}
        <Form.Item label="Type of business" name="business_type">
          <Radio.Group
            options={BUSINESS_TYPES.map((t) => ({ value: t, label: BUSINESS_TYPE_LABELS[t] }))}
            optionType="button"
            className="auth-page__business-types"
          />
        </Form.Item>
        <Form.Item
          label="Company name"
          name="company_name"
          dependencies={['business_type']}
          rules={[
            ({ getFieldValue }) => ({
              required: getFieldValue('business_type') === 'limited',
              whitespace: true,
              message: SIGNUP_MESSAGES.companyNameRequired,
            }),
          ]}
        >
          <Input autoComplete="organization" maxLength={NAME_MAX} />
        </Form.Item>
        <Form.Item noStyle shouldUpdate={(a: Values, b: Values) => a.business_type !== b.business_type}>
          {({ getFieldValue }) =>
            getFieldValue('business_type') === 'limited' && (
              <Form.Item
                label="Company number"
                name="company_number"
                extra="From Companies House, e.g. 01234567 or SC123456."
                rules={[
                  {
                    validator: (_r, v?: string) => {
                      if (!v?.trim()) return Promise.resolve();
                      const n = validateCompanyNumber(v);
                      return n.ok ? Promise.resolve() : Promise.reject(new Error(n.message));
                    },
                  },
                ]}
              >
                <Input maxLength={20} autoComplete="off" />
              </Form.Item>
            )
          }
        </Form.Item>
        <Form.Item label="First name" name="first_name">
          <Input autoComplete="given-name" maxLength={100} />
        </Form.Item>
        <Form.Item label="Last name" name="last_name">
          <Input autoComplete="family-name" maxLength={100} />
        </Form.Item>
        <Form.Item
          label="Phone"
          name="phone"
          rules={[
            {
              validator: (_r, v?: string) =>
                !v?.trim() || !phoneProblem(v) ? Promise.resolve() : Promise.reject(new Error(phoneProblem(v)!)),
            },
          ]}
        >
          <Input type="tel" autoComplete="tel" maxLength={40} />
        </Form.Item>
        <Form.Item label="Email" name="email" rules={FORM_RULES.email('Please enter your e-mail address')}>
          <Input type="email" prefix={<MailOutlined aria-hidden="true" />} autoComplete="email" maxLength={254} />
        </Form.Item>
        <PasswordPairFields />
        <Button type="primary" htmlType="submit" block loading={isLoading}>
          Create account
        </Button>
      </Form>
    </AuthCard>
  );
}
