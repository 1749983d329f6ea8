import { Alert, Button, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { formatDate, type Task, type TaskListQuery } from '@countinghouse/proto';
import { errorBody, type AuthRealm } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { TASK_PRIORITY_COLOURS, TASK_PRIORITY_LABELS, TASK_STATUS_COLOURS, TASK_STATUS_LABELS } from '../crm/labels';
import { useTaskCompleteMutation, useWorkTasksQuery } from './api';
import { clientRecordTabPath } from './paths';

export const clientLink = (base: string, id: string) => `${base}/clients/${encodeURIComponent(id)}`;

interface Props {
  realm: AuthRealm;
  base: string;
  query: Partial<TaskListQuery>;
  showClient?: boolean;
  emptyText?: string;
}

/** Tasks with their client (a link to the record), due date and status; open ones can be completed here. */
export function TasksTable({ realm, base, query, showClient = true, emptyText = 'No tasks' }: Props) {
  const q = useWorkTasksQuery({ page_size: 100, ...query, realm });
  const [complete, completing] = useTaskCompleteMutation();
  const toast = useToast();
  if (q.isError) return <Alert type="error" showIcon title={serverText(errorBody(q.error)?.message ?? 'The tasks could not be loaded')} />;

  async function done(t: Task) {
    try {
      const reply = await complete({ id: t.id, realm }).unwrap();
      toast.success(serverText(reply.message), 'task-done');
    } catch (err) {
      toast.error(serverText(errorBody(err)?.message ?? 'The task could not be completed'), 'task-done');
    }
  }

  return (
    <Table<Task>
      rowKey="id"
      size="small"
      loading={q.isFetching}
      pagination={false}
      scroll={{ x: 'max-content' }}
      tableLayout="auto"
      dataSource={q.data?.tasks ?? []}
      locale={{ emptyText }}
      columns={[
        ...(showClient
          ? [
              {
                title: 'Client',
                key: 'client',
                render: (_: unknown, t: Task) =>
                  t.client_id ? <Link to={clientLink(base, t.client_id)}>{t.client_company_name ?? 'Client'}</Link> : '—',
              },
            ]
          : []),
        {
          title: 'Task',
          dataIndex: 'title',
          render: (title: string, t) => (
            <>
              <Typography.Text strong={t.status !== 'completed'}>{title}</Typography.Text>
              {/* A task the deadline job opened links to its deadline, on the client's record (issue 26). */}
              {t.deadline_id && t.client_id && (
                <div>
                  <Link to={clientRecordTabPath(base, t.client_id, 'deadlines', t.deadline_id)} aria-label={`Open its deadline: ${title}`}>
                    Open its deadline
                  </Link>
                </div>
              )}
              {t.description && (
                <div>
                  <Typography.Text type="secondary">{t.description}</Typography.Text>
                </div>
              )}
            </>
          ),
        },
        {
          title: 'Due',
          dataIndex: 'due_date',
          render: (d: string | null, t) =>
            d ? (
              <Typography.Text type={t.status !== 'completed' && d < new Date().toISOString().slice(0, 10) ? 'danger' : undefined}>
                {formatDate(d)}
              </Typography.Text>
            ) : (
              '—'
            ),
        },
        { title: 'Assigned to', dataIndex: 'assignee_name', render: (n: string | null) => n ?? 'Unassigned' },
        {
          title: 'Priority',
          dataIndex: 'priority',
          render: (p: Task['priority']) => <Tag color={TASK_PRIORITY_COLOURS[p]}>{TASK_PRIORITY_LABELS[p]}</Tag>,
        },
        {
          title: 'Status',
          dataIndex: 'status',
          render: (s: Task['status']) => <Tag color={TASK_STATUS_COLOURS[s]}>{TASK_STATUS_LABELS[s]}</Tag>,
        },
        {
          title: 'Actions',
          key: 'actions',
          render: (_: unknown, t) =>
            t.status === 'completed' || t.status === 'cancelled' ? null : (
              <Button
                size="small"
                loading={completing.isLoading && completing.originalArgs?.id === t.id}
                onClick={() => void done(t)}
                aria-label={`Complete: ${t.title}`}
              >
                Complete
              </Button>
            ),
        },
      ]}
    />
  );
}
