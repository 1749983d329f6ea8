import { ENGAGEMENT_MESSAGES, findPackage, formatGBP, SIGNER_NAME_MAX, type Letter } from '@countinghouse/proto';
import { Alert, Button, Card, Checkbox, Form, Input, Result, Steps, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { errorBody, httpStatus } from '../../app/api';
import { ButtonLink } from '../../shared/ButtonLink';
import { PageSpinner } from '../../shared/PageSpinner';
import { serverText, useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import { usePackageTermsMutation, useSignLetterMutation } from './api';
import './engagement.css';

/** Where the checkout goes once the letter is signed; the state tells it the terms were just accepted. */
export const checkoutPath = (pkg: string) => `/checkout?package=${encodeURIComponent(pkg)}`;
export interface CheckoutState {
  termsSigned?: boolean;
}

/** How long the page waits for the sign-up to reach the letters (an event) before it gives up. */
const READY_TRIES = 20;

/**
 * /terms?package=Growth (issue 33): terms before payment. The client reads the engagement letter for
 * the package they chose and signs it (typed name and agreement); then the checkout starts. A letter
 * already signed for that package is not asked for again: the page goes straight to the payment.
 */
export function TermsPage() {
  const [params] = useSearchParams();
  const pkg = findPackage(params.get('package'));
  usePageTitle('Your engagement letter');
  const navigate = useNavigate();
  const [ask] = usePackageTermsMutation();
  const [letter, setLetter] = useState<Letter | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const asked = useRef(false);

  useEffect(() => {
    if (!pkg || asked.current) return;
    asked.current = true;
    let cancelled = false;
    const load = async (attempt: number): Promise<void> => {
      try {
        const reply = await ask({ package_name: pkg.name as never }).unwrap();
        if (cancelled) return;
        if (reply.accepted) navigate(checkoutPath(pkg.name), { replace: true, state: { termsSigned: true } satisfies CheckoutState });
        else setLetter(reply.letter);
      } catch (err) {
        if (cancelled) return;
        // A moment after signing up the account may not have reached the letters yet: try again.
        if (httpStatus(err) === 409 && attempt < READY_TRIES) {
          await new Promise((r) => setTimeout(r, 500));
          return load(attempt + 1);
        }
        setFailure(errorBody(err)?.message ?? 'Your engagement letter could not be loaded. Please try again.');
      }
    };
    void load(1);
    return () => {
      cancelled = true;
    };
  }, [pkg, ask, navigate]);

  if (!pkg)
    return (
      <Result
        status="warning"
        title="Choose a package first"
        extra={
          <ButtonLink to="/package-selection" type="primary">
            See packages
          </ButtonLink>
        }
      />
    );
  if (failure)
    return (
      <Result
        status="error"
        title="We could not load your engagement letter"
        subTitle={failure}
        extra={<ButtonLink to="/package-selection">Back to packages</ButtonLink>}
      />
    );
  if (!letter) return <PageSpinner label="Preparing your engagement letter…" />;
  return <TermsForm letter={letter} onSigned={() => navigate(checkoutPath(pkg.name), { replace: true, state: { termsSigned: true } })} />;
}

interface Values {
  full_name: string;
  agree: boolean;
}

function TermsForm({ letter, onSigned }: { letter: Letter; onSigned: () => void }) {
  const [sign, signing] = useSignLetterMutation();
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const onFinish = async (v: Values) => {
    setError(null);
    try {
      const r = await sign({ id: letter.id, full_name: v.full_name, agree: v.agree }).unwrap();
      toast.success(serverText(r.message));
      onSigned();
    } catch (err) {
      setError(errorBody(err)?.message ?? 'The letter could not be signed. Please try again.');
    }
  };
  return (
    <div className="terms-page">
      <Steps
        className="terms-page__steps"
        size="small"
        current={1}
        responsive={false}
        items={[{ title: 'Account' }, { title: 'Engagement letter' }, { title: 'Payment' }]}
      />
      <Card>
        <Typography.Title level={1} className="terms-page__title">
          {ENGAGEMENT_MESSAGES.termsHeading(letter.package_name)}
        </Typography.Title>
        <p>
          Before you pay, please read the terms of our work for {letter.client_name}: the {letter.package_name} package at{' '}
          {formatGBP(letter.monthly_fee)} per month. You sign once; a signed copy goes to your documents.
        </p>
        <pre className="engagement-letter-text" tabIndex={0} aria-label="Letter text">
          {letter.text}
        </pre>
        <Form<Values> name="terms" layout="vertical" requiredMark={false} onFinish={(v) => void onFinish(v)} disabled={signing.isLoading}>
          <Form.Item
            label="Type your full name to sign"
            name="full_name"
            rules={[{ required: true, whitespace: true, message: ENGAGEMENT_MESSAGES.nameRequired }]}
          >
            <Input autoComplete="name" maxLength={SIGNER_NAME_MAX} />
          </Form.Item>
          <Form.Item
            name="agree"
            valuePropName="checked"
            rules={[{ validator: (_r, v) => (v ? Promise.resolve() : Promise.reject(new Error(ENGAGEMENT_MESSAGES.mustAgree))) }]}
          >
            <Checkbox>I have read this engagement letter and agree to its terms on behalf of {letter.client_name}.</Checkbox>
          </Form.Item>
          {error && <Alert type="error" showIcon title={error} role="alert" className="terms-page__alert" />}
          <Typography.Paragraph type="secondary">
            We record your name, the time, your IP address and browser with a SHA-256 fingerprint of this text (
            {letter.text_sha256.slice(0, 12)}…).
          </Typography.Paragraph>
          <Button type="primary" htmlType="submit" loading={signing.isLoading}>
            Sign and continue to payment
          </Button>
        </Form>
      </Card>
    </div>
  );
}
