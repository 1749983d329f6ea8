import { Alert, Button, Card, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { formatDateTime, MESSAGES, type Lockout } from '@countinghouse/proto';
import { useLockoutsQuery } from './api';

const NO_LOCKOUTS_TEXT = 'No sign-in delays so far';

const SCOPE_LABELS: Record<Lockout['scope'], string> = { user: 'Person', admin: 'Admin panel account', address: 'Address' };

const columns: ColumnsType<Lockout> = [
  {
    title: 'Who',
    key: 'who',
    render: (_: unknown, l: Lockout) => (
      <span>
        {l.account ?? 'Every account'} <Typography.Text type="secondary">({SCOPE_LABELS[l.scope]})</Typography.Text>
      </span>
    ),
  },
  { title: 'Address', dataIndex: 'address', key: 'address', render: (v: string | null) => v || '—' },
  { title: 'Started', dataIndex: 'started_at', key: 'started', render: (v: string) => formatDateTime(v) },
  { title: 'Until', dataIndex: 'until', key: 'until', render: (v: string) => formatDateTime(v) },
  { title: 'Attempts', dataIndex: 'failures', key: 'failures', align: 'right' },
  {
    title: 'Status',
    dataIndex: 'active',
    key: 'active',
    render: (active: boolean) => (active ? <Tag color="red">running</Tag> : <Tag>ended</Tag>),
  },
];

/**
 * Security: the sign-in delays that started. Repeated failed sign-ins delay an account for addresses it
 * has not signed in from recently (1 minute, then 2, 4 ... up to an hour), and an address that guesses
 * at many accounts; the person's usual address still signs in.
 */
export function LockoutsCard() {
  const lockouts = useLockoutsQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <Card
      title={<h2 className="user-management__card-title">Sign-in delays</h2>}
      extra={lockouts.data ? <Typography.Text type="secondary">{lockouts.data.active} running now</Typography.Text> : null}
    >
      <Typography.Paragraph type="secondary">
        Five failed sign-ins in 15 minutes delay further attempts on that account for 1 minute, then 2, 4 and so on up to an hour, except
        from addresses the person signed in from in the last 30 days. An address failing 30 times is delayed for every account.
      </Typography.Paragraph>
      {lockouts.isError ? (
        <Alert
          type="error"
          showIcon
          title={MESSAGES.failedToLoadLockouts}
          action={
            <Button size="small" onClick={() => void lockouts.refetch()}>
              Try again
            </Button>
          }
        />
      ) : (
        <Table<Lockout>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={lockouts.data?.lockouts ?? []}
          loading={lockouts.isFetching}
          locale={{ emptyText: NO_LOCKOUTS_TEXT }}
          scroll={{ x: 'max-content' }}
          pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
        />
      )}
    </Card>
  );
}
