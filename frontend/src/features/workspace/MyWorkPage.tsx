import { useState, type ReactNode } from 'react';
import { Alert, Card, Empty, Flex, List, Segmented, Skeleton, Tag, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { formatDate, formatDateTime, type WorkBucket, type WorkKind, type WorkWho } from '@countinghouse/proto';
import { httpStatus, type AuthRealm } from '../../app/api';
import { PageHeader } from '../../shared/PageHeader';
import { usePageTitle } from '../../shared/use-page-title';
import { useWorkQuery } from './api';
import { clientLink, TasksTable } from './TasksTable';
import { clientRecordTabPath } from './paths';
import { useAwaitingReviewQuery, useUnreadThreadsQuery } from '../requests/api';
import { MyJobsCard } from '../jobs/MyJobsCard';
import './workspace.css';

export interface MyWorkProps {
  realm: AuthRealm;
  base: '/admin' | '/work';
  /** The signed-in person's user id ("mine"). */
  userId: string | null;
  /** Admins and managers may switch to everyone's work; others see only their own. */
  canSeeEveryone: boolean;
}

const KIND_LABEL: Record<WorkKind, string> = {
  deadline: 'Deadline',
  task: 'Task',
  aml_review: 'AML review',
  letter: 'Letter awaiting signature',
};

interface Item {
  key: string;
  due: string;
  bucket: WorkBucket;
  kind: string;
  clientId: string | null;
  clientName: string;
  what: ReactNode;
}

const BUCKETS: { key: WorkBucket; title: string; empty: string }[] = [
  { key: 'overdue', title: 'Overdue', empty: 'Nothing overdue' },
  { key: 'this_week', title: 'Due this week', empty: 'Nothing due this week' },
  { key: 'next_week', title: 'Due next week', empty: 'Nothing due next week' },
];

const londonToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());

/**
 * My work (issue 26): what is overdue, due this week and due next week across deadlines, tasks
 * assigned to me, AML reviews and letters awaiting signature, with "Mine / Everyone" for those who
 * may see everyone's. The server limits an accountant to their own clients everywhere.
 */
export function MyWorkPage({ realm, base, userId, canSeeEveryone }: MyWorkProps) {
  usePageTitle('My work');
  const [scope, setScope] = useState<WorkWho>('mine');
  const who: WorkWho = canSeeEveryone ? scope : 'mine';
  const sources = [
    useWorkQuery({ source: 'deadlines', who, realm }),
    useWorkQuery({ source: 'tasks', who, realm }),
    useWorkQuery({ source: 'aml', who, realm }),
    useWorkQuery({ source: 'letters', who, realm }),
  ];
  const today = sources.find((q) => q.data)?.data?.today ?? londonToday();
  const loading = sources.some((q) => q.isLoading);
  const failed = sources.some((q) => q.isError);

  const items: Item[] = sources.flatMap((q) =>
    (q.data?.items ?? []).map((w) => ({
      key: `${w.kind}-${w.id}`,
      due: w.due_on,
      bucket: w.bucket,
      kind: KIND_LABEL[w.kind],
      clientId: w.client_id,
      clientName: w.client_name ?? '',
      what: w.assignee_name && who === 'everyone' ? `${w.title} (${w.assignee_name})` : w.title,
    })),
  );

  const byBucket = (b: WorkBucket) => items.filter((i) => i.bucket === b).sort((x, y) => x.due.localeCompare(y.due));

  return (
    <Flex vertical gap={16} className="my-work">
      <PageHeader
        title="My work"
        subtitle={`Today is ${formatDate(today)}`}
        extra={
          canSeeEveryone ? (
            <Segmented
              aria-label="Whose work"
              value={scope}
              onChange={(v) => setScope(v as WorkWho)}
              options={[
                { value: 'mine', label: 'Mine' },
                { value: 'everyone', label: 'Everyone' },
              ]}
            />
          ) : undefined
        }
      />
      {failed && <Alert type="error" showIcon title="Some of your work could not be loaded. Try again in a moment." />}
      {loading ? (
        <Skeleton active />
      ) : (
        BUCKETS.map((b) => {
          const list = byBucket(b.key);
          return (
            <Card
              key={b.key}
              size="small"
              title={
                <Typography.Title level={2} className="my-work__bucket-title" style={{ fontSize: 18 }}>
                  {b.title} <Tag color={b.key === 'overdue' && list.length ? 'red' : 'default'}>{list.length}</Tag>
                </Typography.Title>
              }
            >
              {list.length === 0 ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={b.empty} />
              ) : (
                <List
                  size="small"
                  dataSource={list}
                  renderItem={(i) => (
                    <List.Item key={i.key} data-kind={i.kind}>
                      <Flex vertical gap={2} style={{ minWidth: 0 }}>
                        {i.clientId ? (
                          <Link to={clientLink(base, i.clientId)} className="my-work__client">
                            {i.clientName || 'Client'}
                          </Link>
                        ) : (
                          <Typography.Text strong>{i.clientName || 'No client'}</Typography.Text>
                        )}
                        <span>
                          <Tag>{i.kind}</Tag>
                          {i.what}
                        </span>
                        <Typography.Text type={b.key === 'overdue' ? 'danger' : 'secondary'}>Due {formatDate(i.due)}</Typography.Text>
                      </Flex>
                    </List.Item>
                  )}
                />
              )}
            </Card>
          );
        })
      )}
      <RequestsSections realm={realm} base={base} />
      <MyJobsCard realm={realm} base={base} mine={who === 'mine'} />
      <Card
        size="small"
        title={
          <Typography.Title level={2} className="my-work__bucket-title" style={{ fontSize: 18 }}>
            {who === 'mine' ? 'My tasks' : 'Tasks'}
          </Typography.Title>
        }
      >
        <TasksTable
          realm={realm}
          base={base}
          query={who === 'mine' && userId ? { assignee_id: userId } : {}}
          emptyText="No tasks assigned"
        />
      </Card>
    </Flex>
  );
}

const sectionTitle = (text: string, count: number) => (
  <Typography.Title level={2} className="my-work__bucket-title" style={{ fontSize: 18 }}>
    {text} <Tag color={count ? 'blue' : 'default'}>{count}</Tag>
  </Typography.Title>
);

/**
 * From the requests service (issue 28): request items clients submitted that wait for the practice's
 * review, and message threads the practice has not read. The API limits an accountant to their
 * clients; someone it refuses (403) simply has no such sections.
 */
function RequestsSections({ realm, base }: { realm: AuthRealm; base: string }) {
  const review = useAwaitingReviewQuery({ realm });
  const unread = useUnreadThreadsQuery({ realm });
  const refused = (q: { isError: boolean; error?: unknown }) => q.isError && httpStatus(q.error) === 403;
  const items = review.data?.items ?? [];
  const threads = unread.data?.threads ?? [];
  return (
    <>
      {!refused(review) && (
        <Card size="small" title={sectionTitle('Submitted, waiting for review', items.length)}>
          {review.isLoading ? (
            <Skeleton active />
          ) : review.isError ? (
            <Alert type="error" showIcon title="The items waiting for review could not be loaded" />
          ) : items.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Nothing waiting for review" />
          ) : (
            <List
              size="small"
              dataSource={[...items].sort((a, b) => a.submitted_at.localeCompare(b.submitted_at))}
              renderItem={(i) => (
                <List.Item key={i.item_id} data-kind="review">
                  <Flex vertical gap={2} style={{ minWidth: 0 }}>
                    <Link to={clientRecordTabPath(base, i.client_id, 'requests')} className="my-work__client">
                      {i.client_name}
                    </Link>
                    <span>
                      <Tag>Request</Tag>
                      {i.title}: {i.label}
                    </span>
                    <Typography.Text type="secondary">Submitted {formatDateTime(i.submitted_at)}</Typography.Text>
                  </Flex>
                </List.Item>
              )}
            />
          )}
        </Card>
      )}
      {!refused(unread) && (
        <Card size="small" title={sectionTitle('Unread messages', threads.length)}>
          {unread.isLoading ? (
            <Skeleton active />
          ) : unread.isError ? (
            <Alert type="error" showIcon title="The unread messages could not be loaded" />
          ) : threads.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No unread messages" />
          ) : (
            <List
              size="small"
              dataSource={[...threads].sort((a, b) => b.last_at.localeCompare(a.last_at))}
              renderItem={(t) => (
                <List.Item key={t.client_id} data-kind="message">
                  <Flex vertical gap={2} style={{ minWidth: 0 }}>
                    <Link to={clientRecordTabPath(base, t.client_id, 'messages')} className="my-work__client">
                      {t.client_name}
                    </Link>
                    <span>
                      {t.unread} unread message{t.unread === 1 ? '' : 's'}
                    </span>
                    <Typography.Text type="secondary">Last {formatDateTime(t.last_at)}</Typography.Text>
                  </Flex>
                </List.Item>
              )}
            />
          )}
        </Card>
      )}
    </>
  );
}
