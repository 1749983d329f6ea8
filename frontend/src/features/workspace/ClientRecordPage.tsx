import { Suspense, type ReactNode } from 'react';
import { Alert, Button, Card, Descriptions, Empty, Flex, Result, Skeleton, Table, Tag } from 'antd';
import { useParams, useSearchParams } from 'react-router-dom';
import { ButtonLink } from '../../shared/ButtonLink';
import {
  deadlineKindLabel,
  formatDate,
  formatDateTime,
  formatGBP,
  hasPermission,
  type ClientRecord,
  type Role,
  type Deadline,
  type SubscriptionStatus,
} from '@countinghouse/proto';
import { errorBody, httpStatus, type AuthRealm } from '../../app/api';
import { PageHeader } from '../../shared/PageHeader';
import { ResponsiveTabs } from '../../shared/ResponsiveTabs';
import { usePageTitle } from '../../shared/use-page-title';
import { PageSpinner } from '../../shared/PageSpinner';
import { ClientStatusBadge } from '../crm/components/StatusBadge';
import { useClientDeadlinesQuery, useClientTaxRecordQuery } from '../deadlines/api';
import { DeadlineTable } from '../deadlines/DeadlineTable';
import { TaxProfileForm } from '../deadlines/TaxProfileForm';
import { useMarkDone, useUndoDone } from '../deadlines/use-mark-done';
import { AmlFileView } from '../aml/AmlWorkspace';
import { ClientMtdTab } from '../mtd/ClientMtdTab';
import { OutstandingTag } from '../aml/OutstandingBadge';
import { ClientLettersView } from '../engagement/ClientLetterDialog';
import { ClientDocumentsView } from '../documents/ClientDocumentsView';
import { DocumentUploader } from '../documents';
import { MessageThread } from '../requests/MessageThread';
import { useUnreadThreadsQuery } from '../requests/api';
import { useClientCommunicationsQuery, useRecordQuery } from './api';
import { useMeQuery } from '../auth/api';
import { AuditTrail } from '../records/AuditTrail';
import { ClientJobsTab } from '../jobs/ClientJobsTab';
import { IdentifiersCard } from './IdentifiersCard';
import { TasksTable } from './TasksTable';
import { ClientTimeline } from './ClientTimeline';
import { ClientRequestsTab } from './ClientRequestsTab';
import { PeopleCard } from './PeopleCard';
import { overdueFirst } from './order';
import { RECORD_TABS, type RecordTab } from './paths';
import './workspace.css';

const LETTER_BADGE: Record<ClientRecord['badges']['letter'], { text: string; colour: string }> = {
  none: { text: 'No engagement letter', colour: 'default' },
  awaiting_signature: { text: 'Letter awaiting signature', colour: 'gold' },
  signed: { text: 'Letter signed', colour: 'green' },
};

export const NO_ACCESS_TITLE = "You don't have access to this client";

export interface RecordProps {
  /** 'admin' in the admin panel, 'user' in the staff-side workspace (/work). */
  realm: AuthRealm;
  /** Where this area's pages live: '/admin' or '/work' (links to other clients' records, back to the list). */
  base: '/admin' | '/work';
}

/** Where a client's record is, in the admin panel or in the workspace. */
export const clientRecordPath = (base: string, id: string) => `${base}/clients/${encodeURIComponent(id)}`;

/**
 * One page per client (issue 26): a header (name, status, package and fee, accountant, badges), then
 * Overview, Deadlines, Tasks, Documents, AML, Engagement letter, Communications, Billing and Timeline.
 * The API decides who may open it: a 403 (an accountant opening another accountant's client) is a
 * page that says so, not a spinner or an empty record.
 */
export function ClientRecordPage({ realm, base }: RecordProps) {
  const { id = '' } = useParams();
  const client = useRecordQuery({ id, realm }, { skip: !id });
  usePageTitle(client.data?.client.company_name ?? 'Client');

  if (client.isError) {
    const status = httpStatus(client.error);
    const back = (
      <ButtonLink to={base === '/admin' ? '/admin/clients' : '/work'} type="primary">
        {base === '/admin' ? 'Back to clients' : 'Back to My work'}
      </ButtonLink>
    );
    if (status === 403)
      return (
        <Result
          status="403"
          title={NO_ACCESS_TITLE}
          subTitle="It is assigned to another accountant. Ask a manager if you need to work on it."
          extra={back}
        />
      );
    if (status === 404 || status === 400)
      return <Result status="404" title="Client not found" subTitle="There is no client at this address." extra={back} />;
    return (
      <Result
        status="error"
        title="The client could not be loaded"
        subTitle={errorBody(client.error)?.message ?? 'The server did not answer. Try again.'}
        extra={<Button onClick={() => void client.refetch()}>Try again</Button>}
      />
    );
  }
  if (!client.data) return <PageSpinner label="Loading the client…" />;
  return <Record record={client.data} realm={realm} base={base} />;
}

function Record({ record, realm, base }: { record: ClientRecord } & RecordProps) {
  const { client, badges } = record;
  const overdue = badges.overdue_deadlines;
  const letterRealm = realm === 'user' ? 'user' : 'admin';
  const lazy = (node: ReactNode) => <Suspense fallback={<Skeleton active />}>{node}</Suspense>;
  const [search] = useSearchParams();
  const asked = search.get('tab');
  const tab: RecordTab = (RECORD_TABS as readonly string[]).includes(asked ?? '') ? (asked as RecordTab) : 'overview';
  const deadlineId = search.get('deadline');
  // The thread is marked read when opened, so its unread count comes from the practice's unread list.
  const unread = useUnreadThreadsQuery({ realm }).data?.threads.find((t) => t.client_id === client.id)?.unread ?? 0;
  // The Audit tab (issue 34): the admin session holds every permission; a person by their roles.
  const me = useMeQuery(undefined, { skip: realm !== 'user' });
  const roles: readonly Role[] = realm === 'user' ? (me.data?.roles ?? []) : ['admin'];
  const canAudit = hasPermission(roles, 'audit');
  const canExport = hasPermission(roles, 'audit.export');
  const canJobs = hasPermission(roles, 'client_jobs');

  const tabs = [
    { key: 'overview', label: 'Overview', children: <Overview record={record} realm={realm} /> },
    {
      key: 'timeline',
      label: 'Timeline',
      children: <ClientTimeline clientId={client.id} realm={realm} canAddNote={record.can.add_note} />,
    },
    {
      key: 'deadlines',
      label: 'Deadlines',
      children: (
        <DeadlinesTab clientId={client.id} realm={realm} highlight={deadlineId} canSubmitMtd={hasPermission(roles, 'mtd.submit')} />
      ),
    },
    {
      key: 'tasks',
      label: 'Tasks',
      children: <TasksTable realm={realm} base={base} query={{ client_id: client.id }} showClient={false} />,
    },
    ...(canJobs ? [{ key: 'jobs', label: 'Jobs', children: <ClientJobsTab clientId={client.id} realm={realm} base={base} /> }] : []),
    { key: 'requests', label: 'Requests', children: <ClientRequestsTab clientId={client.id} realm={realm} /> },
    {
      key: 'messages',
      label: unread > 0 ? `Messages (${unread} unread)` : 'Messages',
      children: <MessageThread clientId={client.id} realm={realm} />,
    },
    {
      key: 'documents',
      label: 'Documents',
      children: (
        <Flex vertical gap={16}>
          <ClientDocumentsView clientId={client.id} realm={letterRealm} hideClientColumn canSeeAccessLog={realm === 'admin'} />
          <Card size="small" title="Upload for this client">
            <DocumentUploader clientId={client.id} realm={letterRealm} />
          </Card>
        </Flex>
      ),
    },
    { key: 'aml', label: 'AML', children: lazy(<AmlFileView clientId={client.id} realm={realm} />) },
    { key: 'letter', label: 'Engagement letter', children: <ClientLettersView clientId={client.id} realm={letterRealm} /> },
    { key: 'communications', label: 'Communications', children: <CommunicationsTab clientId={client.id} realm={realm} /> },
    { key: 'billing', label: 'Billing', children: <BillingTab client={client} /> },
    ...(canAudit
      ? [
          {
            key: 'audit',
            label: 'Audit',
            children: lazy(
              <Flex vertical gap={8}>
                <AuditTrail clientId={client.id} realm={realm} canExport={canExport} />
                {realm === 'admin' && <ButtonLink to="/admin/audit">The whole practice's audit trail</ButtonLink>}
              </Flex>,
            ),
          },
        ]
      : []),
  ];

  return (
    <Flex vertical gap={16} className="client-record">
      <PageHeader
        title={client.company_name}
        subtitle={
          <Flex wrap gap={8} align="center" component="span" className="client-record__facts">
            <ClientStatusBadge status={client.subscription_status as SubscriptionStatus} />
            <span>
              {client.package_name ?? 'No package'} · {formatGBP(client.monthly_fee)}/month
            </span>
            <span>Accountant: {client.assigned_accountant_name ?? 'Unassigned'}</span>
          </Flex>
        }
      />
      <Flex wrap gap={8} aria-label="Badges" role="list" className="client-record__badges">
        {badges.due_diligence === 'outstanding' && (
          <span role="listitem">
            <OutstandingTag />
          </span>
        )}
        {badges.due_diligence === 'awaiting_approval' && (
          <span role="listitem">
            <Tag color="gold">Due diligence awaiting approval</Tag>
          </span>
        )}
        <span role="listitem">
          <Tag color={LETTER_BADGE[badges.letter].colour}>{LETTER_BADGE[badges.letter].text}</Tag>
        </span>
        {overdue > 0 && (
          <span role="listitem">
            <Tag color="red">
              {overdue} overdue deadline{overdue === 1 ? '' : 's'}
            </Tag>
          </span>
        )}
      </Flex>
      <Card>
        {/* Keyed by the address's tab, so a link to another tab of this record opens it. */}
        <ResponsiveTabs key={`${tab}:${deadlineId ?? ''}`} items={tabs} defaultActiveKey={tab} label="Section" />
      </Card>
    </Flex>
  );
}

const dash = (v: ReactNode) => (v === null || v === undefined || v === '' ? '—' : v);
function Overview({ record, realm }: { record: ClientRecord; realm: AuthRealm }) {
  const { client } = record;
  const tax = useClientTaxRecordQuery({ clientId: client.id, realm });
  return (
    <Flex vertical gap={16}>
      <IdentifiersCard record={record} tax={tax.data} realm={realm} />
      <Card size="small" title="Contact">
        <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered>
          <Descriptions.Item label="Name">{dash(client.contact_name)}</Descriptions.Item>
          <Descriptions.Item label="E-mail">
            <a href={`mailto:${client.contact_email}`}>{client.contact_email}</a>
          </Descriptions.Item>
          <Descriptions.Item label="Phone">
            {client.contact_phone ? <a href={`tel:${client.contact_phone}`}>{client.contact_phone}</a> : '—'}
          </Descriptions.Item>
          <Descriptions.Item label="Client since">{formatDate(client.registration_date)}</Descriptions.Item>
        </Descriptions>
      </Card>
      <PeopleCard clientId={client.id} realm={realm} />
    </Flex>
  );
}

function DeadlinesTab({
  clientId,
  realm,
  highlight,
  canSubmitMtd,
}: {
  clientId: string;
  realm: AuthRealm;
  highlight?: string | null;
  canSubmitMtd: boolean;
}) {
  const deadlines = useClientDeadlinesQuery({ clientId, realm });
  const record = useClientTaxRecordQuery({ clientId, realm });
  const markDone = useMarkDone(realm);
  const undo = useUndoDone(realm);
  const rows: Deadline[] = overdueFirst(deadlines.data?.deadlines ?? []);
  // Opened from a task that came from a deadline: that deadline first, said in words.
  const named = highlight ? rows.find((d) => d.id === highlight) : undefined;
  return (
    <Flex vertical gap={16}>
      {highlight && deadlines.data && (
        <Alert
          type={named ? 'info' : 'warning'}
          showIcon
          data-testid="linked-deadline"
          title={
            named
              ? `The task's deadline: ${deadlineKindLabel(named.kind)}, ${named.period}, due ${formatDate(named.due_on)}${
                  named.status === 'done' ? ' (done)' : named.status === 'overdue' ? ' (overdue)' : ''
                }`
              : "The task's deadline is not in this client's list: it may have been removed"
          }
        />
      )}
      {deadlines.isError ? (
        <Alert type="error" showIcon title="The client's deadlines could not be loaded" />
      ) : (
        <DeadlineTable
          deadlines={rows}
          loading={deadlines.isFetching}
          showClient={false}
          onMarkDone={markDone}
          onUndo={(d) => void undo(d)}
          emptyText="No deadlines yet: fill in the tax profile"
        />
      )}
      <Card size="small" title="Tax profile">
        {record.data ? (
          <TaxProfileForm record={record.data} realm={realm} canEdit />
        ) : record.isError ? (
          <Alert type="error" title="The tax profile could not be loaded" />
        ) : (
          <Skeleton active />
        )}
      </Card>
      <section aria-labelledby="mtd-heading">
        <h2 id="mtd-heading" className="client-record__section-title">
          Making Tax Digital for Income Tax
        </h2>
        <ClientMtdTab clientId={clientId} realm={realm} canSubmit={canSubmitMtd} />
      </section>
    </Flex>
  );
}

function CommunicationsTab({ clientId, realm }: { clientId: string; realm: AuthRealm }) {
  const q = useClientCommunicationsQuery({ clientId, realm });
  if (q.isError) return <Alert type="error" showIcon title="The communications could not be loaded" />;
  return (
    <Table
      rowKey="id"
      size="small"
      loading={q.isFetching}
      pagination={false}
      scroll={{ x: 'max-content' }}
      tableLayout="auto"
      dataSource={q.data?.communications ?? []}
      locale={{ emptyText: 'No communications logged' }}
      columns={[
        { title: 'When', dataIndex: 'occurred_at', render: (v: string) => formatDateTime(v) },
        { title: 'Subject', dataIndex: 'subject' },
        { title: 'Channel', dataIndex: 'channel' },
        { title: 'Direction', dataIndex: 'direction' },
      ]}
    />
  );
}

function BillingTab({ client }: { client: ClientRecord['client'] }) {
  return (
    <Descriptions size="small" column={1} bordered>
      <Descriptions.Item label="Package">{dash(client.package_name)}</Descriptions.Item>
      <Descriptions.Item label="Monthly fee">{formatGBP(client.monthly_fee)}</Descriptions.Item>
      <Descriptions.Item label="Subscription">
        <ClientStatusBadge status={client.subscription_status as SubscriptionStatus} />
      </Descriptions.Item>
    </Descriptions>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <Empty description={children} />;
}
