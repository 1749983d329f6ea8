import { useMemo, useState, type ReactNode } from 'react';
import { Alert, Card, Empty, Flex, List, Segmented, Skeleton, Tag, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { amlStatusLabel, deadlineKindLabel, formatDate, type Deadline, type Task } from '@countinghouse/proto';
import type { AuthRealm } from '../../app/api';
import { PageHeader } from '../../shared/PageHeader';
import { usePageTitle } from '../../shared/use-page-title';
import { useDeadlinesQuery } from '../deadlines/api';
import { StatusTag } from '../deadlines/DeadlineTable';
import { useAmlFilesQuery } from '../aml/api';
import { useLetterStatusesQuery } from '../engagement/api';
import { useWorkTasksQuery } from './api';
import { bucketOf, overdueFirst, type Bucket } from './order';
import { clientLink, TasksTable } from './TasksTable';
import './workspace.css';

export interface MyWorkProps {
  realm: AuthRealm;
  base: '/admin' | '/work';
  /** The signed-in person's user id ("mine"). */
  userId: string | null;
  /** Admins and managers may switch to everyone's work; others see only their own. */
  canSeeEveryone: boolean;
  /** Whether AML files may be listed (aml.view). */
  canSeeAml: boolean;
}

interface Item {
  key: string;
  due: string | null;
  kind: 'Deadline' | 'Task' | 'AML review' | 'Letter';
  clientId: string | null;
  clientName: string;
  what: ReactNode;
  tag?: ReactNode;
}

const BUCKETS: { key: Exclude<Bucket, 'later'>; title: string; empty: string }[] = [
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
export function MyWorkPage({ realm, base, userId, canSeeEveryone, canSeeAml }: MyWorkProps) {
  usePageTitle('My work');
  const [scope, setScope] = useState<'mine' | 'everyone'>('mine');
  const mine = scope === 'mine' && userId ? userId : undefined;

  const overdue = useDeadlinesQuery({ window: 'overdue', page_size: 200, assignee_id: mine, realm });
  const coming = useDeadlinesQuery({ window: '30', page_size: 200, assignee_id: mine, realm });
  const tasks = useWorkTasksQuery({ assignee_id: mine, page_size: 200, realm });
  const aml = useAmlFilesQuery({ status: 'outstanding', page_size: 100, realm }, { skip: !canSeeAml });
  const letters = useLetterStatusesQuery({ realm });

  const today = overdue.data?.today ?? coming.data?.today ?? londonToday();
  const loading = overdue.isLoading || coming.isLoading || tasks.isLoading;
  const failed = overdue.isError || coming.isError || tasks.isError;

  const items = useMemo(() => {
    const out: Item[] = [];
    const seen = new Set<string>();
    const deadlines: Deadline[] = overdueFirst([...(overdue.data?.deadlines ?? []), ...(coming.data?.deadlines ?? [])]);
    for (const d of deadlines) {
      if (seen.has(d.id) || d.status === 'done') continue;
      seen.add(d.id);
      out.push({
        key: `d-${d.id}`,
        due: d.due_on,
        kind: 'Deadline',
        clientId: d.client_id,
        clientName: d.client_name,
        what: `${deadlineKindLabel(d.kind)} (${d.period})`,
        tag: <StatusTag status={d.status} />,
      });
    }
    for (const t of tasks.data?.tasks ?? []) {
      if (t.status === 'completed' || t.status === 'cancelled' || !t.due_date) continue;
      out.push({ key: `t-${t.id}`, due: t.due_date, kind: 'Task', clientId: t.client_id, clientName: t.client_company_name ?? '', what: taskText(t) });
    }
    for (const f of aml.data?.items ?? []) {
      // Files waiting for the MLRO, and reviews falling due: an undated file is work for this week.
      out.push({
        key: `a-${f.client_id}`,
        due: f.next_review_on ?? today,
        kind: 'AML review',
        clientId: f.client_id,
        clientName: f.client_name,
        what: `Due diligence: ${amlStatusLabel(f.status)}`,
      });
    }
    for (const l of letters.data?.statuses ?? []) {
      if (l.status !== 'awaiting_signature') continue;
      out.push({
        key: `l-${l.client_id}`,
        due: today,
        kind: 'Letter',
        clientId: l.client_id,
        clientName: l.client_name,
        what: `Engagement letter version ${l.version} awaiting signature`,
      });
    }
    return out;
  }, [overdue.data, coming.data, tasks.data, aml.data, letters.data, today]);

  const byBucket = (b: Bucket) =>
    items.filter((i) => i.due !== null && bucketOf(i.due, today) === b).sort((x, y) => (x.due ?? '').localeCompare(y.due ?? ''));

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
              onChange={(v) => setScope(v as 'mine' | 'everyone')}
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
                        <Typography.Text type={b.key === 'overdue' ? 'danger' : 'secondary'}>
                          Due {i.due ? formatDate(i.due) : '—'} {i.tag}
                        </Typography.Text>
                      </Flex>
                    </List.Item>
                  )}
                />
              )}
            </Card>
          );
        })
      )}
      <Card size="small" title={<Typography.Title level={2} className="my-work__bucket-title" style={{ fontSize: 18 }}>{scope === 'mine' ? 'My tasks' : 'Tasks'}</Typography.Title>}>
        <TasksTable realm={realm} base={base} query={{ assignee_id: mine }} emptyText="No tasks assigned" />
      </Card>
    </Flex>
  );
}

function taskText(t: Task): string {
  return t.assignee_name ? `${t.title} (${t.assignee_name})` : t.title;
}
