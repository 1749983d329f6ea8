import { formatDateTime, JOBS_MESSAGES, MESSAGES, type FailedJobView, type ScheduleView } from '@countinghouse/proto';
import { Alert, Button, Card, Empty, Flex, Skeleton, Table, Tag, Tooltip, Typography } from 'antd';
import { errorBody } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import { useJobsOverviewQuery, useRetryJobMutation } from './api';

/** The status page refreshes itself while open, so a retried job's outcome shows without a reload. */
const REFRESH_MS = 15_000;

const OUTCOME: Record<NonNullable<ScheduleView['last_outcome']>, { colour: string; text: string }> = {
  running: { colour: 'processing', text: 'Running' },
  completed: { colour: 'success', text: 'Completed' },
  retrying: { colour: 'warning', text: 'Retrying' },
  failed: { colour: 'error', text: 'Failed' },
};

/** /admin/jobs: every schedule with its last and next run, and the jobs that failed for good with Retry. */
export function JobsPage() {
  usePageTitle('Background Jobs');
  const overview = useJobsOverviewQuery(undefined, { pollingInterval: REFRESH_MS, skipPollingIfUnfocused: true });
  return (
    <Flex vertical gap={16}>
      <Typography.Title level={1} style={{ margin: 0 }}>
        Background Jobs
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        Scheduled work runs in UK time (Europe/London). A run missed while the system was down runs once when it is back.
      </Typography.Paragraph>
      {overview.isError && (
        <Alert
          type="error"
          showIcon
          title="The job status could not be loaded."
          action={
            <Button size="small" onClick={() => void overview.refetch()}>
              Try again
            </Button>
          }
        />
      )}
      {overview.isLoading && <Skeleton active />}
      {overview.data && (
        <>
          <SchedulesCard schedules={overview.data.schedules} />
          <FailedCard failed={overview.data.failed} />
        </>
      )}
    </Flex>
  );
}

export default JobsPage;

function SchedulesCard({ schedules }: { schedules: ScheduleView[] }) {
  return (
    <Card title="Schedules">
      <Table<ScheduleView>
        rowKey="key"
        size="middle"
        pagination={false}
        dataSource={schedules}
        locale={{ emptyText: <Empty description="No schedules are declared." /> }}
        columns={[
          {
            title: 'Job',
            key: 'label',
            render: (_, s) => (
              <Flex vertical>
                <span>{s.label}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {s.key}
                </Typography.Text>
              </Flex>
            ),
          },
          { title: 'When', key: 'cron', render: (_, s) => <Typography.Text code>{s.cron}</Typography.Text> },
          {
            title: 'Last run',
            key: 'last',
            render: (_, s) =>
              s.last_run_at ? formatDateTime(s.last_run_at) : <Typography.Text type="secondary">Not yet run</Typography.Text>,
          },
          {
            title: 'Outcome',
            key: 'outcome',
            render: (_, s) =>
              s.last_outcome ? (
                <Tooltip title={s.last_error ?? undefined}>
                  <Tag color={OUTCOME[s.last_outcome].colour}>{OUTCOME[s.last_outcome].text}</Tag>
                </Tooltip>
              ) : (
                '—'
              ),
          },
          { title: 'Next run', key: 'next', render: (_, s) => formatDateTime(s.next_run_at) },
        ]}
      />
    </Card>
  );
}

function FailedCard({ failed }: { failed: FailedJobView[] }) {
  const [retry, { isLoading, originalArgs }] = useRetryJobMutation();
  const toast = useToast();
  const onRetry = async (j: FailedJobView) => {
    try {
      await retry({ name: j.name, id: j.id }).unwrap();
      toast.success(serverText(JOBS_MESSAGES.retried), `retry-${j.id}`);
    } catch (error) {
      const body = errorBody(error);
      toast.error(body ? serverText(body.message) : MESSAGES.unexpectedError, `retry-${j.id}`);
    }
  };
  return (
    <Card title="Failed jobs">
      <Table<FailedJobView>
        scroll={{ x: 'max-content' }}
        tableLayout="auto"
        rowKey={(j) => `${j.name}:${j.id}`}
        size="middle"
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        dataSource={failed}
        locale={{ emptyText: <Empty description="No failed jobs." /> }}
        columns={[
          { title: 'Job', key: 'label', render: (_, j) => j.label },
          { title: 'Error', key: 'error', render: (_, j) => <Typography.Text type="danger">{j.error}</Typography.Text> },
          { title: 'Attempts', dataIndex: 'attempts', key: 'attempts', align: 'right' },
          { title: 'Failed', key: 'failed_at', render: (_, j) => formatDateTime(j.failed_at) },
          {
            title: '',
            key: 'retry',
            fixed: 'right' as const,
            align: 'right',
            render: (_, j) => (
              <Button aria-label={`Retry ${j.label}`} loading={isLoading && originalArgs?.id === j.id} onClick={() => void onRetry(j)}>
                Retry
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
}
