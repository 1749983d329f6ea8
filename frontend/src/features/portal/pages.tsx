import { BUSINESS_TYPE_LABELS, formatDate, MESSAGES } from '@countinghouse/proto';
import { Button, Card, Empty, Result, Skeleton, Space, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { personSessionReset } from '../../app/person-session';
import { useAppDispatch } from '../../app/store';
import type { FrameState } from '../../app/layouts/PublicLayout';
import { ButtonLink } from '../../shared/ButtonLink';
import { PageSpinner } from '../../shared/PageSpinner';
import { usePageTitle } from '../../shared/use-page-title';
import { useMeQuery, usePersonLogoutMutation } from '../auth/api';
import { ChangePasswordButton } from '../auth/ChangePasswordButton';
import { forgetPrivateData } from '../auth/forget';
import { useMyClientQuery, useSubscriptionQuery } from '../client/api';
import { BusinessProfileForm } from '../client/BusinessProfileForm';
import { InvoicesCard } from '../client/Invoices';
import { ChangePackage, SubscriptionCard } from '../client/Subscription';
import { MyDeadlinesCard } from '../deadlines/MyDeadlinesCard';
import { ClientDocumentsView, DocumentUploader } from '../documents';
import { useRequestsQuery } from '../requests/api';
import { MessageThread } from '../requests/MessageThread';
import { RequestedFromYou } from '../requests/RequestedFromYou';
import '../client/client.css';

// The client portal's pages (issue 33, item 4): each one a section that was on the long dashboard.
export { PortalLayout } from './PortalLayout';
export { ClientDashboardPage } from '../client/ClientDashboardPage';

function PageTitle({ children }: { children: string }) {
  usePageTitle(children);
  return (
    <Typography.Title level={1} className="portal-page__title">
      {children}
    </Typography.Title>
  );
}

/**
 * The signed-in client's subscription and business record, with the page's states: loading, the
 * subscription check failing, and no active package yet (nothing to show but the way to choose one).
 */
function WithClient({ title, children }: { title: string; children: (clientId: string) => ReactNode }) {
  const sub = useSubscriptionQuery(undefined, { refetchOnMountOrArgChange: true });
  const subscribed = sub.data?.subscribed === true;
  const client = useMyClientQuery(undefined, { skip: !subscribed });
  let body: ReactNode;
  if (sub.isLoading || (subscribed && client.isLoading)) body = <PageSpinner />;
  else if (sub.isError || client.isError)
    body = (
      <Result
        status="error"
        title={sub.isError ? MESSAGES.failedToVerifySubscription : MESSAGES.failedToLoadClientData}
        extra={<Button onClick={() => void (sub.isError ? sub.refetch() : client.refetch())}>Try again</Button>}
      />
    );
  else if (!subscribed || !client.data) body = <NoPackage />;
  else body = children(client.data.id);
  return (
    <div className="portal-page">
      <PageTitle>{title}</PageTitle>
      {body}
    </div>
  );
}

function NoPackage() {
  return (
    <Card className="portal-gap">
      <Empty description="You do not have an active package yet.">
        <ButtonLink to="/package-selection" type="primary">
          Choose a package
        </ButtonLink>
      </Empty>
    </Card>
  );
}

/** /portal/documents: the client's own documents view, with drag-and-drop and a picker. */
export function PortalDocumentsPage() {
  return (
    <WithClient title="Documents">
      {(clientId) => (
        <Card title="Your documents" className="portal-gap">
          <DocumentUploader clientId={clientId} realm="user" />
          <ClientDocumentsView clientId={clientId} realm="user" clientView />
        </Card>
      )}
    </WithClient>
  );
}

function CompletedRequests() {
  const q = useRequestsQuery({ status: 'complete', realm: 'user' });
  const list = q.data?.requests ?? [];
  return (
    <Card title={<h2 className="requests-card-title">Completed requests</h2>} className="portal-gap">
      {q.isLoading ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : q.isError ? (
        <Typography.Text type="danger">Your completed requests could not be loaded.</Typography.Text>
      ) : list.length === 0 ? (
        <Empty description="No completed requests yet." />
      ) : (
        <ul className="portal-list">
          {list.map((r) => (
            <li key={r.id}>
              <strong>{r.title}</strong> <span className="portal-muted">sent {formatDate(r.sent_on)}, complete</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** /portal/requests: what the practice asks of the client (answer here), and what is done. */
export function PortalRequestsPage() {
  return (
    <WithClient title="Requests">
      {() => (
        <>
          <RequestedFromYou />
          <CompletedRequests />
        </>
      )}
    </WithClient>
  );
}

/** /portal/messages: the secure thread with the practice (opening it marks it read). */
export function PortalMessagesPage() {
  return (
    <WithClient title="Messages">
      {(clientId) => <MessageThread clientId={clientId} realm="user" title="Messages with your accountant" />}
    </WithClient>
  );
}

/** /portal/deadlines: every deadline, with what the client must do and by when. */
export function PortalDeadlinesPage() {
  return <WithClient title="Deadlines">{() => <MyDeadlinesCard withActions title="Your deadlines" />}</WithClient>;
}

/** /portal/billing: package and next payment, VAT invoices (PDF), change package. */
export function PortalBillingPage() {
  const sub = useSubscriptionQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <WithClient title="Billing">
      {() => (
        <>
          {sub.data && <SubscriptionCard s={sub.data} title="Your package and next payment" />}
          <InvoicesCard />
          {sub.data?.package_name && <ChangePackage current={sub.data.package_name} />}
        </>
      )}
    </WithClient>
  );
}

function LogOutButton() {
  const [logout, { isLoading }] = usePersonLogoutMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const signOut = async () => {
    try {
      await logout().unwrap();
    } catch {
      // Signed out locally anyway; the access token expires on its own.
    }
    const state: FrameState = { notice: MESSAGES.loggedOut };
    // Leave the page first, so the guard does not see its data vanish and redirect (as the header does).
    navigate('/login', { replace: true, state });
    dispatch(forgetPrivateData());
    dispatch(personSessionReset());
  };
  return (
    <Button danger onClick={() => void signOut()} loading={isLoading}>
      Log out
    </Button>
  );
}

function ProfileCard() {
  const sub = useSubscriptionQuery();
  const client = useMyClientQuery(undefined, { skip: sub.data?.subscribed !== true });
  const [editing, setEditing] = useState(false);
  const c = client.data;
  return (
    <Card title="Your business profile" className="portal-gap">
      {sub.isLoading || client.isLoading ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : !c ? (
        <p>Your business profile is made when you choose a package.</p>
      ) : (
        <>
          <dl className="client-facts">
            <dt>Business name</dt>
            <dd>{c.company_name}</dd>
            <dt>Business type</dt>
            <dd>{BUSINESS_TYPE_LABELS[c.business_type]}</dd>
            <dt>Contact</dt>
            <dd>{c.contact_name ?? 'Not given'}</dd>
            <dt>E-mail</dt>
            <dd className="portal-wrap">{c.contact_email}</dd>
            <dt>Phone</dt>
            <dd>{c.contact_phone ?? 'Not given'}</dd>
          </dl>
          <Button onClick={() => setEditing(true)}>Edit business profile</Button>
          <BusinessProfileForm client={c} open={editing} onClose={() => setEditing(false)} />
        </>
      )}
    </Card>
  );
}

/** /portal/account: profile, password, two-factor sign-in (Account security), Log out. */
export function PortalAccountPage() {
  const me = useMeQuery();
  const u = me.data?.user;
  return (
    <div className="portal-page">
      <PageTitle>Account</PageTitle>
      <Card title="Signed in as" className="portal-gap">
        {u ? (
          <p className="portal-wrap">
            <strong>{[u.first_name, u.last_name].filter(Boolean).join(' ') || u.email}</strong>
            {(u.first_name || u.last_name) && <span className="portal-muted"> ({u.email})</span>}
          </p>
        ) : (
          <Skeleton active paragraph={{ rows: 0 }} />
        )}
        <LogOutButton />
      </Card>
      <ProfileCard />
      <Card title="Password and sign-in" className="portal-gap">
        <p>Change your password, or turn on two-factor sign-in with an authenticator app or a passkey.</p>
        <Space wrap>
          <ChangePasswordButton realm="user" />
          <ButtonLink to="/account/security">Account security</ButtonLink>
        </Space>
      </Card>
    </div>
  );
}

/** Any other /portal/… address. */
export function PortalNotFoundPage() {
  usePageTitle('Page not found');
  return (
    <Result
      status="404"
      title={<h1 className="client-result-title">Page not found</h1>}
      subTitle="This page is not part of your portal."
      extra={
        <ButtonLink to="/dashboard" type="primary">
          Back to Home
        </ButtonLink>
      }
    />
  );
}
