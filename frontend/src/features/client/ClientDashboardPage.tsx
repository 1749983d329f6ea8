import { BUSINESS_TYPE_LABELS, findPackage, LIMITS, MESSAGES } from '@countinghouse/proto';
import { Button, Card, Result, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { httpStatus } from '../../app/api';
import { ButtonLink } from '../../shared/ButtonLink';
import { PageSpinner } from '../../shared/PageSpinner';
import { useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import { pendingPackage, useMyClientQuery, useSubscriptionQuery } from './api';
import { BusinessProfileForm } from './BusinessProfileForm';
import { MyDeadlinesCard } from '../deadlines/MyDeadlinesCard';
import { SignLetterItem } from '../engagement/SignLetterItem';
import { RequestedFromYou } from '../requests/RequestedFromYou';
import { UnreadMessagesCard } from '../requests/UnreadMessagesCard';
import { SubscriptionCard } from './Subscription';
import './client.css';

/**
 * /dashboard and /client-dashboard: the client portal's Home (issue 33, item 4; decision 640). What is
 * asked of the client first, their package, the getting-started checklist, the next deadlines with what
 * the client must do, and unread messages. Documents, invoices, the package change, messages and the
 * account have their own portal pages.
 */
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

          <SubscriptionCard s={s} title="Your package" />

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
                  Upload them under <Link to="/portal/documents">Documents</Link>, or{' '}
                  <Link to="/integrations">connect Xero or QuickBooks</Link>.
                </p>
              </li>
            </ol>
          </Card>

          {c && <BusinessProfileForm client={c} open={editingProfile} onClose={() => setEditingProfile(false)} />}

          {c && (
            <div className="client-gap">
              <MyDeadlinesCard limit={3} withActions moreTo="/portal/deadlines" />
            </div>
          )}

          {c && <UnreadMessagesCard clientId={c.id} />}
        </>
      )}
    </div>
  );
}
