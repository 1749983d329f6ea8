import { BILLING_MESSAGES, findPackage, formatGBP, LIMITS, MESSAGES } from '@countinghouse/proto';
import { Alert, Button, Card, Result, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { CheckoutState } from '../engagement/TermsPage';
import { errorBody, httpStatus } from '../../app/api';
import { personSessionReset } from '../../app/person-session';
import { useAppDispatch } from '../../app/store';
import { ButtonLink } from '../../shared/ButtonLink';
import { PageSpinner } from '../../shared/PageSpinner';
import { serverText, useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import {
  pendingPackage,
  usePayTestCheckoutMutation,
  useStartCheckoutMutation,
  useTestCheckoutQuery,
  useVerifyPaymentMutation,
} from './api';
import { PracticeContact } from './PracticeContact';
import './client.css';

export { PracticeContact } from './PracticeContact';
export { TermsPage } from '../engagement/TermsPage';

/**
 * /checkout?package=Growth: starts the checkout for the chosen package. A visitor who is not signed in
 * goes through sign-up first and comes back here (?redirect=); the choice is also remembered for the
 * dashboard in case a page on the way drops the redirect.
 */
export function CheckoutPage() {
  usePageTitle('Checkout');
  const [params] = useSearchParams();
  const pkg = findPackage(params.get('package'));
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [start] = useStartCheckoutMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);
  const termsSigned = Boolean((useLocation().state as CheckoutState | null)?.termsSigned);

  useEffect(() => {
    if (!pkg || started.current) return;
    started.current = true;
    pendingPackage.set(pkg.name);
    const attempt = (n: number): Promise<void> =>
      start({ package_name: pkg.name })
        .unwrap()
        .then((reply) => {
          // The test checkout is a page of this site; Stripe's is elsewhere.
          if (reply.url.startsWith('/')) navigate(reply.url, { replace: true });
          else window.location.assign(reply.url);
        })
        .catch(async (err: unknown) => failed(err, n));
    const failed = async (err: unknown, n: number): Promise<void> => {
      const status = httpStatus(err);
      if (status === 409 && errorBody(err)?.code === 'TERMS_NOT_ACCEPTED') {
        // Terms before payment (issue 33). Just signed: billing hears of it a moment later.
        if (termsSigned && n < 10) {
          await new Promise((r) => setTimeout(r, 500));
          return attempt(n + 1);
        }
        navigate(`/terms?package=${encodeURIComponent(pkg.name)}`, { replace: true });
      } else if (status === 401) {
        dispatch(personSessionReset());
        const back = `/checkout?package=${encodeURIComponent(pkg.name)}`;
        navigate(`/signup?redirect=${encodeURIComponent(back)}`, { replace: true });
      } else if (status === 409 && errorBody(err)?.message === BILLING_MESSAGES.alreadySubscribed) {
        pendingPackage.clear();
        navigate('/client-dashboard', { replace: true });
      } else {
        setFailure(errorBody(err)?.message ?? BILLING_MESSAGES.providerUnavailable);
      }
    };
    void attempt(1);
  }, [pkg, start, navigate, dispatch, termsSigned]);

  if (!pkg) {
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
  }
  if (failure) {
    return (
      <Result
        status="error"
        title="We could not start the checkout"
        subTitle={failure}
        extra={<ButtonLink to="/package-selection">Back to packages</ButtonLink>}
      />
    );
  }
  return <PageSpinner label={`Starting your checkout for ${pkg.name}…`} />;
}

/** /checkout/test?session_id=…: the built-in checkout used when Stripe is not configured. No card is charged. */
export function TestCheckoutPage() {
  usePageTitle('Test checkout');
  const [params] = useSearchParams();
  const sessionId = params.get('session_id') ?? '';
  const session = useTestCheckoutQuery(sessionId, { skip: !sessionId });
  const [pay, paying] = usePayTestCheckoutMutation();
  const navigate = useNavigate();
  const toast = useToast();

  useEffect(() => {
    if (httpStatus(session.error) === 401)
      navigate(`/login?redirect=${encodeURIComponent(`/checkout/test?session_id=${sessionId}`)}`, { replace: true });
  }, [session.error, navigate, sessionId]);

  if (!sessionId || session.isError) {
    return (
      <Result
        status="warning"
        title={BILLING_MESSAGES.sessionNotFound}
        extra={<ButtonLink to="/package-selection">Back to packages</ButtonLink>}
      />
    );
  }
  if (session.isLoading || !session.data) return <PageSpinner />;
  const s = session.data;
  const onPay = async () => {
    try {
      const paid = await pay(sessionId).unwrap();
      navigate(paid.success_url, { replace: true });
    } catch (err) {
      toast.error(serverText(errorBody(err)?.message ?? MESSAGES.failedToVerifyPayment));
    }
  };
  return (
    <div className="client-page client-page--narrow">
      <Card>
        <Typography.Title level={1} className="client-title">
          Test checkout
        </Typography.Title>
        <Alert type="warning" showIcon title={BILLING_MESSAGES.testCheckoutNotice} className="client-gap" />
        <dl className="client-facts">
          <dt>Package</dt>
          <dd>{s.package_name}</dd>
          <dt>Price</dt>
          <dd>{formatGBP(s.monthly_fee)} per month</dd>
          {(s.vat_rate ?? 0) > 0 && (
            <>
              <dt>VAT at {s.vat_rate}%</dt>
              <dd>{formatGBP(s.vat)}</dd>
              <dt>Total to pay</dt>
              <dd>
                {formatGBP(s.monthly_fee)} + {formatGBP(s.vat)} VAT = {formatGBP(s.gross)}
              </dd>
            </>
          )}
        </dl>
        {s.status === 'open' ? (
          <Space wrap>
            <Button type="primary" size="large" loading={paying.isLoading} onClick={() => void onPay()}>
              Pay {formatGBP(s.gross ?? s.monthly_fee)} (test, no card charged)
            </Button>
            <ButtonLink to={s.cancel_url} size="large">
              Cancel
            </ButtonLink>
          </Space>
        ) : (
          <ButtonLink to={s.success_url} type="primary">
            Continue
          </ButtonLink>
        )}
      </Card>
    </div>
  );
}

const NEXT_STEPS = [
  { title: 'Complete your business profile', text: 'Tell us your company name, contact details, business type and number of employees.' },
  {
    title: 'Meet your dedicated accountant',
    text: `Your personal accountant is assigned within ${LIMITS.accountantAssignedWithinHours} hours and will get in touch.`,
  },
  { title: 'Start managing your accounting', text: 'Upload documents and connect Xero or QuickBooks from your dashboard.' },
] as const;

/** /payment-success?session_id=…: verifies the payment server-side (idempotent), then welcomes the client. */
export function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id') ?? '';
  const [verify, result] = useVerifyPaymentMutation();
  const toast = useToast();
  const asked = useRef(false);
  const processing = result.isSuccess && result.data.payment_processing === true;
  usePageTitle(
    processing
      ? 'Payment processing'
      : result.isSuccess
        ? 'Payment successful'
        : result.isError
          ? 'Payment verification failed'
          : 'Verifying your payment',
  );

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    if (!sessionId) return;
    verify({ session_id: sessionId })
      .unwrap()
      .then((v) => {
        pendingPackage.clear();
        // A Direct Debit still being confirmed is not a success yet, nor a failure.
        if (!v.payment_processing) toast.success(MESSAGES.paymentSuccessful, 'payment');
      })
      .catch(() => toast.error(MESSAGES.failedToVerifyPayment, 'payment'));
  }, [sessionId, verify, toast]);

  if (!sessionId || result.isError) {
    return (
      <Result
        status="error"
        title={<h1 className="client-result-title">Payment verification failed</h1>}
        subTitle={
          errorBody(result.error)?.message === BILLING_MESSAGES.paymentFailed
            ? BILLING_MESSAGES.paymentFailed
            : 'Please contact support if you believe this is an error.'
        }
        extra={
          <>
            <ButtonLink to="/" type="primary">
              Return Home
            </ButtonLink>
            <PracticeContact />
          </>
        }
      />
    );
  }
  if (!result.isSuccess) return <PageSpinner label="Verifying your payment..." />;
  const v = result.data;
  if (processing) {
    return (
      <div className="client-page client-page--narrow">
        <Result
          status="info"
          title={<h1 className="client-result-title">Payment processing</h1>}
          subTitle={BILLING_MESSAGES.paymentProcessing}
          extra={
            <ButtonLink to="/client-dashboard" type="primary">
              Go to your dashboard
            </ButtonLink>
          }
        />
        <Card title="Your package" className="client-gap">
          <p className="client-package">
            <strong>{v.package_name}</strong> <span>{formatGBP(v.monthly_fee)} per month</span>
          </p>
        </Card>
        <PracticeContact />
      </div>
    );
  }
  return (
    <div className="client-page client-page--narrow">
      <Result
        status="success"
        title={<h1 className="client-result-title">Payment successful! Welcome aboard.</h1>}
        subTitle={`You are subscribed to ${v.package_name}.`}
      />
      <Card title="Your package" className="client-gap">
        <p className="client-package">
          <strong>{v.package_name}</strong> <span>{formatGBP(v.monthly_fee)} per month</span>
        </p>
        <ul className="client-features">
          {v.features.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
      </Card>
      <Card title="What happens next" className="client-gap">
        <ol className="client-steps">
          {NEXT_STEPS.map((s) => (
            <li key={s.title}>
              <strong>{s.title}</strong>
              <p>{s.text}</p>
            </li>
          ))}
        </ol>
        <ButtonLink to="/client-dashboard" type="primary" size="large">
          Go to your dashboard
        </ButtonLink>
      </Card>
      <PracticeContact />
    </div>
  );
}
