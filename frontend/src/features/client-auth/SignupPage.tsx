import { NAME_MAX } from '@countinghouse/proto';
import { FORM_RULES } from '../../shared/form-rules';
import { useState } from 'react';
import { Alert, Button, Form, Input, Radio, Space } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  BUSINESS_TYPE_LABELS,
  BUSINESS_TYPES,
  COMPANY_LOOKUP_MESSAGES,
  findPackage,
  formatDate,
  formatGBP,
  isIncorporated,
  MESSAGES,
  phoneProblem,
  SIGNUP_MESSAGES,
  validateCompanyNumber,
  type BusinessType,
  type CompanyLookup,
  type SignupBody,
} from '@countinghouse/proto';
import { errorBody, httpStatus } from '../../app/api';
import { AuthCard } from '../auth/AuthCard';
import { useCompanyLookupMutation, usePersonSignupMutation } from '../auth/api';
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

// (the four choices are buttons in one row: "LLP" as people say it; the full name is in the lookup's answer)
const RADIO_LABELS: Record<BusinessType, string> = { ...BUSINESS_TYPE_LABELS, llp: 'LLP' };

/**
 * The company number of a limited company or LLP, with a lookup at Companies House (issue 33): what the
 * register says is shown, and fills in the registered name and the business type. Optional: when the
 * practice has no Companies House link, or the register does not answer, the visitor types the name.
 */
function CompanyNumberField() {
  const form = Form.useFormInstance<Values>();
  const [lookup, { isLoading }] = useCompanyLookupMutation();
  const [found, setFound] = useState<CompanyLookup | null>(null);
  const [note, setNote] = useState<string | null>(null);

  async function find() {
    setFound(null);
    setNote(null);
    const raw = form.getFieldValue('company_number') as string | undefined;
    const n = validateCompanyNumber(raw ?? '');
    if (!n.ok) {
      form.setFields([{ name: 'company_number', errors: [n.message] }]);
      return;
    }
    try {
      const c = await lookup({ company_number: n.value }).unwrap();
      setFound(c);
      form.setFieldsValue({
        company_number: c.company_number,
        company_name: c.company_name,
        ...(isIncorporated(c.business_type) ? { business_type: c.business_type } : {}),
      });
      form.setFields([{ name: 'company_number', errors: [] }]);
    } catch (error) {
      const status = httpStatus(error);
      const message = errorBody(error)?.message;
      if (status === 404) form.setFields([{ name: 'company_number', errors: [message ?? COMPANY_LOOKUP_MESSAGES.companyNotFound] }]);
      else if (status === 400 && message) form.setFields([{ name: 'company_number', errors: [message] }]);
      else setNote(status === 429 && message ? message : COMPANY_LOOKUP_MESSAGES.lookupNotAvailable);
    }
  }

  return (
    <>
      <Form.Item
        label="Company number"
        extra="From Companies House, e.g. 01234567 or SC123456: we look it up and fill in the registered name."
        required={false}
      >
        <Space.Compact className="auth-page__company-number">
          <Form.Item
            name="company_number"
            noStyle
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
            <Input
              maxLength={20}
              autoComplete="off"
              aria-label="Company number"
              onChange={() => setFound(null)}
              onPressEnter={(e) => {
                e.preventDefault();
                void find();
              }}
            />
          </Form.Item>
          <Button onClick={() => void find()} loading={isLoading}>
            Look up
          </Button>
        </Space.Compact>
      </Form.Item>
      {found && (
        <Alert
          className="auth-page__alert"
          type={found.company_status === 'active' ? 'success' : 'warning'}
          showIcon
          role="status"
          title={`${found.company_name} (${found.company_number})`}
          description={
            `Companies House: ${found.company_status}` +
            (found.incorporated_on ? `, incorporated ${formatDate(found.incorporated_on)}` : '') +
            (found.business_type ? `. ${BUSINESS_TYPE_LABELS[found.business_type]}.` : '.')
          }
        />
      )}
      {note && <Alert className="auth-page__alert" type="info" showIcon role="status" title={note} />}
    </>
  );
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
            options={BUSINESS_TYPES.map((t) => ({ value: t, label: RADIO_LABELS[t] }))}
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
              required: isIncorporated(getFieldValue('business_type') as BusinessType | undefined),
              whitespace: true,
              message: SIGNUP_MESSAGES.companyNameRequired,
            }),
          ]}
        >
          <Input autoComplete="organization" maxLength={NAME_MAX} />
        </Form.Item>
        <Form.Item noStyle shouldUpdate={(a: Values, b: Values) => a.business_type !== b.business_type}>
          {({ getFieldValue }) => isIncorporated(getFieldValue('business_type') as BusinessType | undefined) && <CompanyNumberField />}
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
