import { BUSINESS_TYPE_LABELS, findPackage, formatDate, formatGBP, LIMITS, MESSAGES, PACKAGE_CATALOGUE } from '@countinghouse/proto';
import { Button, Card, Modal, Result, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { errorBody, httpStatus } from '../../app/api';
import { ChangePasswordButton } from '../auth/ChangePasswordButton';
import { ClientDocumentsView, DocumentUploader } from '../documents';
import { ButtonLink } from '../../shared/ButtonLink';
import { PageSpinner } from '../../shared/PageSpinner';
import { serverText, useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import { pendingPackage, useChangePackageMutation, useMyClientQuery, useSubscriptionQuery } from './api';
import { BusinessProfileForm } from './BusinessProfileForm';
import { PracticeContact } from './PracticeContact';
import { MyDeadlinesCard } from '../deadlines/MyDeadlinesCard';
import { InvoicesCard } from './Invoices';
import { SignLetterItem } from '../engagement/SignLetterItem';
import { MessageThread } from '../requests/MessageThread';
import { RequestedFromYou } from '../requests/RequestedFromYou';
import './client.css';

function StatusBadge({ status }: { status: string | null }) {
  // The spec: an active one shows a green Active badge; any other value is shown as text.
  if (status === 'active') return <Tag color="green">Active</Tag>;
  return <span className="client-status">{status ?? 'none'}</span>;
}

function ChangePackage({ current }: { current: string }) {
  const [choice, setChoice] = useState<string | null>(null);
  const [change, changing] = useChangePackageMutation();
  const toast = useToast();
  const next = findPackage(choice);
  const from = findPackage(current);
  const confirm = async () => {
    if (!next) return;
    try {
      await change({ package_name: next.name }).unwrap();
      toast.success(serverText(`Your package is now ${next.name}.`));
      setChoice(null);
    } catch (err) {
      toast.error(serverText(errorBody(err)?.message ?? MESSAGES.unexpectedError));
    }
  };
  return (
    <Card title="Change package" className="client-gap">
      <p>Upgrade or downgrade at any time. The change applies straight away and your next bill is adjusted for the days left.</p>
      <Space wrap>
        <label htmlFor="change-package" className="client-label">
          New package
        </label>
        <Select
          id="change-package"
          aria-label="New package"
          style={{ minWidth: 260 }}
          placeholder="Choose a package"
          value={choice}
          onChange={setChoice}
          options={PACKAGE_CATALOGUE.filter((p) => p.name !== current).map((p) => ({
            value: p.name,
            label: `${p.name}: ${formatGBP(p.monthlyFee)}/month`,
          }))}
        />
      </Space>
      <Modal
        open={Boolean(next)}
        title={next ? `Move to ${next.name}?` : ''}
        okText="Change package"
        confirmLoading={changing.isLoading}
        onOk={() => void confirm()}
        onCancel={() => setChoice(null)}
      >
        {next && (
          <p>
            From {current} ({formatGBP(from?.monthlyFee ?? 0)}/month) to {next.name} ({formatGBP(next.monthlyFee)}/month).
          </p>
        )}
      </Modal>
    </Card>
  );
}

/** /client-dashboard and /dashboard: subscription, next billing date, onboarding checklist, documents, package change. */
export function ClientDashboardPage({ route }: { route: '/dashboard' | '/client-dashboard' }) {
  usePageTitle('Your dashboard');
  const sub = useSubscriptionQuery(undefined, { refetchOnMountOrArgChange: true });
  const subscribed = sub.data?.subscribed === true;
  const client = useMyClientQuery(undefined, { skip: !subscribed });
  const toast = useToast();
  const pending = pendingPackage.get();
  const [editingProfile, setEditingProfile] = useState(false);

  useEffect(() => {
    if (sub.isError && httpStatus(sub.error) !== 401) toast.error(MESSAGES.failedToVerifySubscription, 'subscription');
  }, [sub.isError, sub.error, toast]);

  if (sub.isLoading) return <PageSpinner />;
  if (sub.isError) {
    return (
      <Result
        status="error"
        title={MESSAGES.failedToVerifySubscription}
        extra={<Button onClick={() => void sub.refetch()}>Try again</Button>}
      />
    );
  }
  const s = sub.data!;
  const c = client.data;
  const profileDone = c?.onboarding_completed === true;

  return (
    <div className="client-page" data-route={route}>
      <Typography.Title level={1} className="client-title">
        Your dashboard
      </Typography.Title>

      {!subscribed && (
        <Card className="client-gap">
          {s.status === 'cancelled' && <p>Your {s.package_name} subscription has ended.</p>}
          <p>You do not have an active package yet.</p>
          <Space wrap>
            {pending && findPackage(pending) && (
              <ButtonLink to={`/checkout?package=${encodeURIComponent(pending)}`} type="primary">
                Continue to checkout for {pending}
              </ButtonLink>
            )}
            <ButtonLink to="/package-selection" type={pending ? 'default' : 'primary'}>
              Choose a package
            </ButtonLink>
          </Space>
        </Card>
      )}

      {subscribed && (
        <>
          {/* First on the dashboard: what the practice is waiting for (issue 28). */}
          {c && <RequestedFromYou />}

          <Card title="Your subscription" className="client-gap">
            <dl className="client-facts">
              <dt>Status</dt>
              <dd>
                <StatusBadge status={s.status} />
              </dd>
              <dt>Package</dt>
              <dd>{s.package_name}</dd>
              <dt>Monthly fee</dt>
              <dd>{formatGBP(s.monthly_fee)}/month</dd>
              <dt>Next billing date</dt>
              <dd>{formatDate(s.subscription_end) || 'Not known yet'}</dd>
            </dl>
            {s.status === 'overdue' && <p className="client-warning">Your last payment did not go through. Please update your card.</p>}
          </Card>
          <InvoicesCard />

          <Card title="Getting started" className="client-gap">
            <ol className="client-checklist">
              <li className="is-done">
                <strong>Choose a package and pay</strong> <Tag color="green">Done</Tag>
              </li>
              <li className={profileDone ? 'is-done' : ''}>
                <strong>Complete your business profile</strong> {profileDone ? <Tag color="green">Done</Tag> : <Tag>To do</Tag>}
                <p>
                  {profileDone && c
                    ? `${c.company_name}, ${BUSINESS_TYPE_LABELS[c.business_type].toLowerCase()}, ${c.employees_count} ${c.employees_count === 1 ? 'employee' : 'employees'}; contact ${c.contact_name ?? ''}${c.contact_phone ? `, ${c.contact_phone}` : ''}.`
                    : 'Your business name, a contact name and phone number, your business type and number of employees.'}
                </p>
                {c && (
                  <Button type={profileDone ? 'default' : 'primary'} onClick={() => setEditingProfile(true)}>
                    {profileDone ? 'Edit business profile' : 'Complete business profile'}
                  </Button>
                )}
              </li>
              <SignLetterItem />
              <li className={c?.assigned_accountant_name ? 'is-done' : ''}>
                <strong>Meet your dedicated accountant</strong>{' '}
                {c?.assigned_accountant_name ? <Tag color="green">{c.assigned_accountant_name}</Tag> : <Tag>Pending</Tag>}
                <p>
                  {c?.assigned_accountant_name
                    ? `${c.assigned_accountant_name} looks after your business.`
                    : `Your accountant is assigned within ${LIMITS.accountantAssignedWithinHours} hours.`}
                </p>
              </li>
              <li>
                <strong>Send us your records</strong>
                <p>
                  Upload documents below, or <Link to="/integrations">connect Xero or QuickBooks</Link>.
                </p>
              </li>
            </ol>
          </Card>

          {c && <BusinessProfileForm client={c} open={editingProfile} onClose={() => setEditingProfile(false)} />}

          {c && (
            <div className="client-gap">
              <MyDeadlinesCard />
            </div>
          )}

          {c && (
            <Card title="Your documents" className="client-gap">
              <DocumentUploader clientId={c.id} realm="user" />
              <ClientDocumentsView clientId={c.id} realm="user" clientView />
            </Card>
          )}

          {c && (
            <div className="client-gap">
              <MessageThread clientId={c.id} realm="user" title="Messages with your accountant" />
            </div>
          )}

          {s.package_name && <ChangePackage current={s.package_name} />}
        </>
      )}
      <Card title="Your account" className="client-gap">
        <Space wrap>
          <ChangePasswordButton realm="user" />
          <ButtonLink to="/account/security">Account security</ButtonLink>
        </Space>
      </Card>
      <PracticeContact />
    </div>
  );
}
