import { useState } from 'react';
import { Alert, Button, Card, Empty, Flex, InputNumber, Select, Skeleton, Switch, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { formatDate, jobKindLabel, RECURRING_JOB_KINDS, type JobSchedule, type JobSummary } from '@countinghouse/proto';
import { errorBody, httpStatus, type AuthRealm } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useClientJobsQuery, useJobSchedulesQuery, useSetJobScheduleMutation } from './client-jobs-api';
import { jobsBase } from './client-jobs-pages';
import { hours } from './JobBoard';

type Status = 'open' | 'filed' | 'all';

/**
 * The client record's Jobs tab (issue 29): the client's jobs (open by default, or filed, or all) with
 * stage, due date, assignee and time against budget, each linking to its job page; and the client's
 * recurring work (bookkeeping, payroll), each on or off with its day of the month.
 */
export function ClientJobsTab({ clientId, realm, base }: { clientId: string; realm: AuthRealm; base: '/admin' | '/work' }) {
  const [status, setStatus] = useState<Status>('open');
  const [page, setPage] = useState(1);
  const jobs = useClientJobsQuery({ realm, client_id: clientId, status, page, page_size: 20 });
  if (jobs.isError && httpStatus(jobs.error) === 403)
    return <Alert type="info" showIcon title="Your role does not include the practice's jobs." />;
  const path = jobsBase(base);
  return (
    <Flex vertical gap={16}>
      <Card
        size="small"
        title={
          <Typography.Title level={2} style={{ fontSize: 18, margin: 0 }}>
            Jobs
          </Typography.Title>
        }
        extra={
          <Select<Status>
            aria-label="Which jobs"
            value={status}
            onChange={(v) => {
              setStatus(v);
              setPage(1);
            }}
            options={[
              { value: 'open', label: 'Open' },
              { value: 'filed', label: 'Filed' },
              { value: 'all', label: 'All' },
            ]}
            style={{ width: 110 }}
          />
        }
      >
        {jobs.isError ? (
          <Alert type="error" showIcon title="The jobs could not be loaded" description={errorBody(jobs.error)?.message} />
        ) : (
          <Table<JobSummary>
            size="small"
            rowKey="id"
            loading={jobs.isFetching}
            dataSource={jobs.data?.jobs ?? []}
            scroll={{ x: 'max-content' }}
            locale={{
              emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={status === 'open' ? 'No open jobs' : 'No jobs'} />,
            }}
            pagination={{ current: page, pageSize: 20, total: jobs.data?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
            columns={[
              {
                title: 'Job',
                key: 'title',
                render: (_, j) => (
                  <Flex vertical gap={2}>
                    <Link to={`${path}/${j.id}`}>{j.title}</Link>
                    <Typography.Text type="secondary">{jobKindLabel(j.kind)}</Typography.Text>
                  </Flex>
                ),
              },
              {
                title: 'Stage',
                key: 'stage',
                render: (_, j) => (
                  <Flex wrap gap={4}>
                    <Tag color={j.status === 'filed' ? 'green' : 'blue'}>{j.stage}</Tag>
                    {j.waiting_on_client && <Tag color="gold">Waiting on the client</Tag>}
                  </Flex>
                ),
              },
              {
                title: 'Due',
                key: 'due',
                render: (_, j) => (
                  <Typography.Text type={j.overdue ? 'danger' : undefined}>
                    {j.overdue ? `${formatDate(j.due_on)} (overdue)` : formatDate(j.due_on)}
                  </Typography.Text>
                ),
              },
              { title: 'Assignee', key: 'assignee', render: (_, j) => j.assignee_name ?? 'Unassigned' },
              { title: 'Time', key: 'time', render: (_, j) => `${hours(j.used_minutes)} of ${hours(j.budget_minutes)}` },
            ]}
          />
        )}
      </Card>
      <RecurringWork clientId={clientId} realm={realm} />
    </Flex>
  );
}

/** Monthly recurring work without a statutory date: a job opens ahead of each occurrence (decision 403). */
function RecurringWork({ clientId, realm }: { clientId: string; realm: AuthRealm }) {
  const schedules = useJobSchedulesQuery({ clientId, realm });
  return (
    <Card
      size="small"
      title={
        <Typography.Title level={2} style={{ fontSize: 18, margin: 0 }}>
          Recurring work
        </Typography.Title>
      }
    >
      <Typography.Paragraph type="secondary">
        Work without a statutory deadline recurs monthly: a job opens ahead of each due day, assigned to the client's accountant.
      </Typography.Paragraph>
      {schedules.isLoading ? (
        <Skeleton active />
      ) : schedules.isError ? (
        <Alert type="error" showIcon title="The recurring work could not be loaded" description={errorBody(schedules.error)?.message} />
      ) : (
        <Flex vertical gap={12}>
          {RECURRING_JOB_KINDS.map((kind) => (
            <ScheduleRow
              key={`${kind}:${schedules.data?.schedules.find((s) => s.kind === kind)?.day_of_month ?? 0}`}
              clientId={clientId}
              realm={realm}
              kind={kind}
              current={schedules.data?.schedules.find((s) => s.kind === kind) ?? null}
            />
          ))}
        </Flex>
      )}
    </Card>
  );
}

function ScheduleRow({
  clientId,
  realm,
  kind,
  current,
}: {
  clientId: string;
  realm: AuthRealm;
  kind: (typeof RECURRING_JOB_KINDS)[number];
  current: JobSchedule | null;
}) {
  const toast = useToast();
  const [day, setDay] = useState<number | null>(current?.day_of_month ?? 20);
  const [setSchedule, saving] = useSetJobScheduleMutation();
  const label = jobKindLabel(kind);
  const save = async (active: boolean, dayOfMonth: number) => {
    try {
      await setSchedule({ clientId, kind, realm, body: { active, day_of_month: dayOfMonth } }).unwrap();
      toast.success(serverText(active ? `${label}: monthly on day ${dayOfMonth}` : `${label}: no longer recurring`));
    } catch (e) {
      toast.error(serverText(errorBody(e)?.message ?? 'The schedule could not be saved'));
    }
  };
  const active = current?.active ?? false;
  const dayId = `schedule-day-${kind}`;
  return (
    <Flex wrap gap={12} align="center" data-kind={kind}>
      <Switch
        checked={active}
        loading={saving.isLoading}
        onChange={(on) => save(on, day ?? current?.day_of_month ?? 20)}
        aria-label={`${label} recurs monthly`}
      />
      <Typography.Text strong style={{ minWidth: 110 }}>
        {label}
      </Typography.Text>
      <label htmlFor={dayId}>Due on day</label>
      <InputNumber id={dayId} min={1} max={28} value={day} onChange={(v) => setDay(v)} style={{ width: 72 }} />
      {active && day !== null && day !== current?.day_of_month && (
        <Button size="small" onClick={() => save(true, day)} loading={saving.isLoading}>
          Save day
        </Button>
      )}
      <Typography.Text type="secondary">
        {active && current ? `Next due ${formatDate(current.next_due_on)}` : 'Not recurring'}
      </Typography.Text>
    </Flex>
  );
}
