import { Button, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { deadlineKindLabel, DEADLINE_STATUSES, formatDate, formatDateTime, type Deadline, type DeadlineStatus } from '@countinghouse/proto';
import { clientFirst } from '../../shared/client-first';
import { useNarrow } from '../../shared/use-narrow';

const STATUS_COLOUR: Record<DeadlineStatus, string> = { upcoming: 'blue', due_soon: 'gold', overdue: 'red', done: 'green' };
const statusLabel = (s: DeadlineStatus) => DEADLINE_STATUSES.find((x) => x.value === s)?.label ?? s;

export function StatusTag({ status }: { status: DeadlineStatus }) {
  return <Tag color={STATUS_COLOUR[status]}>{statusLabel(status)}</Tag>;
}

interface Props {
  deadlines: Deadline[];
  loading?: boolean;
  showClient?: boolean;
  /** Shown when the caller may mark deadlines done. */
  onMarkDone?: (d: Deadline) => void;
  /** Reopen a done deadline (undo). */
  onUndo?: (d: Deadline) => void;
  emptyText?: string;
  pagination?: false | { current: number; pageSize: number; total: number; onChange: (page: number, size: number) => void };
}

/** Deadlines as a table: due date en-GB, overdue ones in red, done ones with who and when. */
export function DeadlineTable({
  deadlines,
  loading,
  showClient = true,
  onMarkDone,
  onUndo,
  emptyText = 'No deadlines',
  pagination = false,
}: Props) {
  const narrow = useNarrow();
  const columns: ColumnsType<Deadline> = [
    {
      title: 'Due',
      dataIndex: 'due_on',
      width: 130,
      render: (v: string, d) => (
        <Typography.Text type={d.status === 'overdue' ? 'danger' : undefined} strong={d.status === 'overdue'}>
          {formatDate(v)}
        </Typography.Text>
      ),
    },
    ...(showClient ? [{ title: 'Client', dataIndex: 'client_name', ellipsis: true } as const] : []),
    { title: 'Deadline', dataIndex: 'kind', render: (k: string) => deadlineKindLabel(k) },
    { title: 'Period', dataIndex: 'period', ellipsis: true },
    {
      title: 'Status',
      dataIndex: 'status',
      width: 170,
      render: (s: DeadlineStatus, d) =>
        s === 'done' ? (
          <span>
            <StatusTag status={s} />
            <Typography.Text type="secondary">
              {d.filed_by_previous_agent ? 'Filed by the previous agent' : d.done_by_name}{' '}
              {d.filed_on ? `filed ${formatDate(d.filed_on)}` : d.done_at ? formatDateTime(d.done_at) : ''}
              {d.reference ? `, ref. ${d.reference}` : ''}
            </Typography.Text>
          </span>
        ) : (
          <span>
            <StatusTag status={s} />
            {/* A confirmation statement cannot be filed while a director or PSC is not verified (ECCTA 2023). */}
            {d.blocked ? <Tag color="volcano">{d.blocked}</Tag> : null}
          </span>
        ),
    },
    ...(onMarkDone
      ? [
          {
            title: 'Actions',
            key: 'actions',
            width: 130,
            render: (_: unknown, d: Deadline) =>
              d.status === 'done' ? (
                onUndo ? (
                  <Button
                    size="small"
                    onClick={() => onUndo(d)}
                    aria-label={`Undo done: ${deadlineKindLabel(d.kind)}, ${d.client_name}, due ${formatDate(d.due_on)}`}
                  >
                    Undo
                  </Button>
                ) : null
              ) : (
                <Button
                  size="small"
                  onClick={() => onMarkDone(d)}
                  aria-label={`Mark done: ${deadlineKindLabel(d.kind)}, ${d.client_name}, due ${formatDate(d.due_on)}`}
                >
                  Mark done
                </Button>
              ),
          },
        ]
      : []),
  ];
  return (
    <Table<Deadline>
      rowKey="id"
      scroll={{ x: 'max-content' }}
      tableLayout="auto"
      size="middle"
      // At 390 px the client's name comes first (issue 26).
      columns={clientFirst(columns, narrow, 'client_name')}
      dataSource={deadlines}
      loading={loading}
      locale={{ emptyText }}
      rowClassName={(d) => (d.status === 'overdue' ? 'deadlines__row--overdue' : '')}
      pagination={pagination ? { ...pagination, showSizeChanger: true } : false}
    />
  );
}
