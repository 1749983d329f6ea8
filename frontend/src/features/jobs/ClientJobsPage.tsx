import { useId, useState } from 'react';
import { Alert, Button, Checkbox, Empty, Flex, Input, List, Modal, Select, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router-dom';
import {
  formatDate,
  formatGBP,
  JOB_KINDS,
  jobKindLabel,
  type DeliveryReply,
  type CapacityWeek,
  type JobKind,
  type JobSummary,
  type ProfitabilityRow,
} from '@countinghouse/proto';
import { errorBody, type AuthRealm } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { PageHeader } from '../../shared/PageHeader';
import { ResponsiveTabs } from '../../shared/ResponsiveTabs';
import { usePageTitle } from '../../shared/use-page-title';
import { downloadCsv, toCsv } from '../reports/csv';
import { useCapacityQuery, useChangeJobMutation, useClientJobsQuery, useDeliveryQuery, useProfitabilityQuery } from './client-jobs-api';
import { hours, JobBoard, type JobsViewProps } from './JobBoard';
import { StaffSettings, TemplateSettings } from './JobSettings';
import './client-jobs.css';

/** The jobs list with its filters: kind, stage, mine, due window, overdue, waiting on the client. */
function JobsList({ realm, base }: JobsViewProps) {
  const [kind, setKind] = useState<JobKind | undefined>();
  const [stage, setStage] = useState('');
  const [mine, setMine] = useState(false);
  const [overdue, setOverdue] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const kindId = useId();
  const list = useClientJobsQuery({
    realm,
    kind,
    stage: stage.trim() || undefined,
    mine,
    overdue,
    waiting_on_client: waiting || undefined,
    due_from: from || undefined,
    due_to: to || undefined,
    page,
    page_size: 50,
  });
  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={12} align="center" className="client-jobs__filters">
        <label htmlFor={kindId}>Kind</label>
        <Select
          id={kindId}
          allowClear
          placeholder="Every kind"
          value={kind}
          onChange={(v: JobKind | undefined) => (setKind(v), setPage(1))}
          options={JOB_KINDS.map((k) => ({ value: k.value, label: k.label }))}
          style={{ minWidth: 200 }}
        />
        <Input
          aria-label="Stage"
          placeholder="Stage, e.g. Review"
          value={stage}
          onChange={(e) => (setStage(e.target.value), setPage(1))}
          style={{ width: 180 }}
        />
        <label>
          Due from <Input type="date" aria-label="Due from" value={from} onChange={(e) => setFrom(e.target.value)} style={{ width: 160 }} />
        </label>
        <label>
          to <Input type="date" aria-label="Due to" value={to} onChange={(e) => setTo(e.target.value)} style={{ width: 160 }} />
        </label>
        <Checkbox checked={mine} onChange={(e) => (setMine(e.target.checked), setPage(1))}>
          Only my jobs
        </Checkbox>
        <Checkbox checked={overdue} onChange={(e) => (setOverdue(e.target.checked), setPage(1))}>
          Overdue
        </Checkbox>
        <Checkbox checked={waiting} onChange={(e) => (setWaiting(e.target.checked), setPage(1))}>
          Waiting on client
        </Checkbox>
      </Flex>
      {list.isError && <Alert type="error" showIcon title="The jobs could not be loaded" />}
      <Table<JobSummary>
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data?.jobs ?? []}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: 'No jobs match these filters' }}
        pagination={{
          current: page,
          pageSize: 50,
          total: list.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
          showTotal: (t) => (list.data?.total_capped ? `More than ${t.toLocaleString('en-GB')} jobs` : `${t.toLocaleString('en-GB')} jobs`),
        }}
        columns={[
          { key: 'client', title: 'Client', render: (_, j) => <Link to={`${base}/${j.id}`}>{j.client_name}</Link> },
          { key: 'job', title: 'Job', render: (_, j) => j.title },
          { key: 'stage', title: 'Stage', dataIndex: 'stage' },
          {
            key: 'due',
            title: 'Due',
            render: (_, j) => (
              <>
                {formatDate(j.due_on)} {j.overdue && <Tag color="red">Overdue</Tag>}
              </>
            ),
          },
          { key: 'who', title: 'Assignee', render: (_, j) => j.assignee_name ?? 'Unassigned' },
          { key: 'budget', title: 'Budget used', render: (_, j) => `${hours(j.used_minutes)} of ${hours(j.budget_minutes)}` },
          { key: 'waiting', title: 'Waiting', render: (_, j) => (j.waiting_on_client ? <Tag color="gold">Waiting on client</Tag> : null) },
        ]}
      />
    </Flex>
  );
}

const cell = (w: CapacityWeek) => (
  <span className={w.over_allocated ? 'capacity-cell--over' : undefined}>
    {hours(w.budgeted_minutes)} / {hours(w.available_minutes)}
    {w.over_allocated && <> (over)</>}
  </span>
);

/** The Sunday ending the week that starts on `monday` (YYYY-MM-DD). */
const weekEnd = (monday: string) => new Date(Date.parse(`${monday}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10);

interface Picked {
  userId: string;
  name: string;
  weekStart: string;
}

/**
 * The 12-week capacity view: hours budgeted on jobs due each week against capacity less leave; over-allocated
 * in red. A person's week with jobs opens them, each with "Reassign to" (the reassign action).
 */
function CapacityView({ realm }: { realm: AuthRealm }) {
  const cap = useCapacityQuery({ weeks: 12, realm });
  const [picked, setPicked] = useState<Picked | null>(null);
  if (cap.isError) return <Alert type="error" showIcon title="The capacity view could not be loaded" />;
  const weeks = cap.data?.weeks ?? [];
  type Row = { key: string; name: string; weeks: CapacityWeek[]; person: boolean };
  const rows: Row[] = [
    ...(cap.data?.people ?? []).map((p) => ({ key: p.user_id, name: p.name, weeks: p.weeks, person: true })),
    ...(cap.data && cap.data.people.length > 1 ? [{ key: 'team', name: 'Team', weeks: cap.data.team, person: false }] : []),
  ];
  const people = (cap.data?.people ?? []).map((p) => ({ value: p.user_id, label: p.name }));
  const render = (r: Row, w: CapacityWeek) =>
    r.person && w.jobs > 0 ? (
      <Button
        type="link"
        size="small"
        className="capacity-cell__open"
        aria-label={`${r.name}, week commencing ${formatDate(w.week_start)}: ${hours(w.budgeted_minutes)} budgeted of ${hours(w.available_minutes)}${w.over_allocated ? ', over-allocated' : ''}. Show the jobs to reassign`}
        onClick={() => setPicked({ userId: r.key, name: r.name, weekStart: w.week_start })}
      >
        {cell(w)}
      </Button>
    ) : (
      cell(w)
    );
  return (
    <Flex vertical gap={8}>
      <Typography.Text type="secondary">
        Each cell: hours budgeted on jobs due that week / hours available (capacity less leave). Open a person&apos;s week to reassign its
        jobs.
      </Typography.Text>
      <Table<Row>
        rowKey="key"
        loading={cap.isLoading}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: 'No staff yet' }}
        columns={[
          { key: 'name', title: 'Person', fixed: 'left', render: (_, r) => r.name },
          ...weeks.map((w, i) => ({ key: w, title: `w/c ${formatDate(w)}`, render: (_: unknown, r: Row) => render(r, r.weeks[i]!) })),
        ]}
      />
      {picked && <ReassignDialog picked={picked} people={people} realm={realm} onClose={() => setPicked(null)} />}
    </Flex>
  );
}

/** A person's open jobs due in one week, each with "Reassign to" another member of staff. */
function ReassignDialog({
  picked,
  people,
  realm,
  onClose,
}: {
  picked: Picked;
  people: Array<{ value: string; label: string }>;
  realm: AuthRealm;
  onClose: () => void;
}) {
  const toast = useToast();
  const jobs = useClientJobsQuery({
    realm,
    assignee_id: picked.userId,
    due_from: picked.weekStart,
    due_to: weekEnd(picked.weekStart),
    page: 1,
    page_size: 100,
  });
  const [change, changing] = useChangeJobMutation();
  const reassign = async (j: JobSummary, to: string) => {
    try {
      await change({ id: j.id, body: { assignee_id: to }, realm }).unwrap();
      toast.success(serverText(`${j.client_name}: ${j.title} reassigned to ${people.find((p) => p.value === to)?.label ?? 'them'}`));
    } catch (e) {
      toast.error(serverText(errorBody(e)?.message ?? 'The job could not be reassigned'));
    }
  };
  const list = jobs.data?.jobs ?? [];
  return (
    <Modal
      open
      title={`${picked.name}: jobs due in the week commencing ${formatDate(picked.weekStart)}`}
      onCancel={onClose}
      footer={<Button onClick={onClose}>Close</Button>}
    >
      {jobs.isError ? (
        <Alert type="error" showIcon title="The jobs could not be loaded" />
      ) : (
        <List
          loading={jobs.isLoading}
          dataSource={list}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No open jobs left this week" /> }}
          renderItem={(j) => (
            <List.Item key={j.id}>
              <Flex vertical gap={4} style={{ width: '100%' }}>
                <Typography.Text strong>
                  {j.client_name}: {j.title}
                </Typography.Text>
                <Typography.Text type="secondary">
                  Due {formatDate(j.due_on)} · budget {hours(j.budget_minutes)}
                </Typography.Text>
                <Select
                  aria-label={`Reassign ${j.client_name}: ${j.title} to`}
                  placeholder="Reassign to"
                  disabled={changing.isLoading}
                  options={people.filter((p) => p.value !== picked.userId)}
                  onChange={(to: string) => void reassign(j, to)}
                  style={{ maxWidth: 280 }}
                />
              </Flex>
            </List.Item>
          )}
        />
      )}
    </Modal>
  );
}

const pounds = (p: number | null) => (p === null ? '—' : formatGBP(p / 100));
const thisMonth = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit' }).format(new Date()).slice(0, 7);

/** Profitability per client and package for a month, with CSV. */
function ProfitabilityView({ realm }: { realm: AuthRealm }) {
  const [month, setMonth] = useState(thisMonth());
  const report = useProfitabilityQuery({ month, realm }, { skip: !/^\d{4}-\d{2}$/.test(month) });
  const rows = report.data?.clients ?? [];
  const exportCsv = () =>
    downloadCsv(
      `countinghouse-profitability-${month}.csv`,
      toCsv(
        ['Client', 'Package', 'Fee (GBP)', 'Hours', 'Cost (GBP)', 'Margin (GBP)', 'Effective rate (GBP/h)'],
        rows.map((r) => [
          r.client_name,
          r.package_name ?? '',
          (r.fee_pence / 100).toFixed(2),
          (r.minutes / 60).toFixed(2),
          (r.cost_pence / 100).toFixed(2),
          (r.margin_pence / 100).toFixed(2),
          r.effective_rate_pence === null ? '' : (r.effective_rate_pence / 100).toFixed(2),
        ]),
      ),
    );
  const columns = [
    { key: 'fee', title: 'Fee', render: (_: unknown, r: Omit<ProfitabilityRow, 'client_id' | 'client_name'>) => pounds(r.fee_pence) },
    { key: 'hours', title: 'Hours', render: (_: unknown, r: Omit<ProfitabilityRow, 'client_id' | 'client_name'>) => hours(r.minutes) },
    { key: 'cost', title: 'Cost', render: (_: unknown, r: Omit<ProfitabilityRow, 'client_id' | 'client_name'>) => pounds(r.cost_pence) },
    {
      key: 'margin',
      title: 'Margin',
      render: (_: unknown, r: Omit<ProfitabilityRow, 'client_id' | 'client_name'>) => (
        <span className={r.margin_pence < 0 ? 'capacity-cell--over' : undefined}>{pounds(r.margin_pence)}</span>
      ),
    },
    {
      key: 'rate',
      title: 'Effective rate',
      render: (_: unknown, r: Omit<ProfitabilityRow, 'client_id' | 'client_name'>) =>
        r.effective_rate_pence === null ? '—' : `${pounds(r.effective_rate_pence)} an hour`,
    },
  ];
  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={12} align="center">
        <label>
          Month <Input type="month" aria-label="Month" value={month} onChange={(e) => setMonth(e.target.value)} style={{ width: 180 }} />
        </label>
        <Button onClick={exportCsv} disabled={rows.length === 0}>
          Export CSV
        </Button>
      </Flex>
      {report.isError && <Alert type="error" showIcon title="The report could not be loaded" />}
      <Typography.Title level={2} style={{ fontSize: 18 }}>
        By client
      </Typography.Title>
      <Table<ProfitabilityRow>
        rowKey="client_id"
        loading={report.isLoading}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: 'No fees or time this month' }}
        columns={[
          { key: 'client', title: 'Client', render: (_, r) => r.client_name },
          { key: 'pkg', title: 'Package', render: (_, r) => r.package_name ?? '—' },
          ...columns,
        ]}
      />
      <Typography.Title level={2} style={{ fontSize: 18 }}>
        By package
      </Typography.Title>
      <Table
        rowKey={(r) => r.package_name ?? 'none'}
        dataSource={report.data?.packages ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: 'No fees or time this month' }}
        columns={[
          { key: 'pkg', title: 'Package', render: (_: unknown, r: { package_name: string | null }) => r.package_name ?? 'No package' },
          ...columns,
        ]}
      />
    </Flex>
  );
}

const monthsAgo = (n: number) => {
  const [y, m] = thisMonth().split('-').map(Number) as [number, number];
  const i = y * 12 + (m - 1) - n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
};

/** Reports of delivery: deadlines met on time vs late per month, jobs by stage, days per stage, work in progress. */
function DeliveryView({ realm }: { realm: AuthRealm }) {
  const [from, setFrom] = useState(monthsAgo(5));
  const [to, setTo] = useState(thisMonth());
  const valid = /^\d{4}-\d{2}$/.test(from) && /^\d{4}-\d{2}$/.test(to) && from <= to;
  const d = useDeliveryQuery({ from, to, realm }, { skip: !valid });
  const h2 = (text: string) => (
    <Typography.Title level={2} style={{ fontSize: 18 }}>
      {text}
    </Typography.Title>
  );
  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={12} align="center">
        <label>
          From <Input type="month" aria-label="From month" value={from} onChange={(e) => setFrom(e.target.value)} style={{ width: 180 }} />
        </label>
        <label>
          To <Input type="month" aria-label="To month" value={to} onChange={(e) => setTo(e.target.value)} style={{ width: 180 }} />
        </label>
      </Flex>
      {!valid && <Alert type="warning" showIcon title="Choose a first month on or before the last" />}
      {d.isError && <Alert type="error" showIcon title="The reports could not be loaded" />}
      {h2('Deadlines met on time')}
      <Table
        rowKey="month"
        loading={d.isLoading}
        dataSource={d.data?.months ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: 'No deadlines in these months' }}
        columns={[
          { key: 'm', title: 'Month due', dataIndex: 'month' },
          { key: 'o', title: 'On time', dataIndex: 'on_time' },
          { key: 'l', title: 'Late', dataIndex: 'late' },
          { key: 'x', title: 'Passed, not filed', dataIndex: 'open_overdue' },
        ]}
      />
      {h2('Open jobs by stage')}
      <Table
        rowKey={(r) => `${r.kind}-${r.stage}`}
        dataSource={d.data?.by_stage ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: 'No open jobs' }}
        columns={[
          { key: 'k', title: 'Kind', render: (_: unknown, r: DeliveryReply['by_stage'][number]) => jobKindLabel(r.kind) },
          { key: 's', title: 'Stage', dataIndex: 'stage' },
          { key: 'j', title: 'Jobs', dataIndex: 'jobs' },
        ]}
      />
      {h2('Average days per stage')}
      <Table
        rowKey="stage"
        dataSource={d.data?.days_per_stage ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: 'No job has moved yet' }}
        columns={[
          { key: 's', title: 'Stage', dataIndex: 'stage' },
          { key: 'a', title: 'Average days', dataIndex: 'average_days' },
          { key: 'm', title: 'Moves', dataIndex: 'moves' },
        ]}
      />
      {h2('Work in progress by person')}
      <Table
        rowKey={(r) => r.user_id ?? 'none'}
        dataSource={d.data?.work_in_progress ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: 'No open jobs' }}
        columns={[
          { key: 'n', title: 'Person', dataIndex: 'name' },
          { key: 'j', title: 'Open jobs', dataIndex: 'jobs' },
          { key: 'o', title: 'Overdue', dataIndex: 'overdue' },
          { key: 'b', title: 'Budget', render: (_: unknown, r: DeliveryReply['work_in_progress'][number]) => hours(r.budget_minutes) },
          { key: 'u', title: 'Used', render: (_: unknown, r: DeliveryReply['work_in_progress'][number]) => hours(r.used_minutes) },
        ]}
      />
    </Flex>
  );
}

interface PageProps extends JobsViewProps {
  /** client_jobs.settings: the profitability report. */
  canSettle: boolean;
}

/** /admin/client-jobs and /work/jobs: the board, the list, capacity and (managers) profitability. */
export function ClientJobsPage({ realm, base, canSettle }: PageProps) {
  usePageTitle('Jobs');
  return (
    <Flex vertical gap={12}>
      <PageHeader title="Jobs" subtitle="The practice's work from every deadline, stage by stage" />
      <ResponsiveTabs
        label="View"
        items={[
          { key: 'board', label: 'Board', children: <JobBoard realm={realm} base={base} /> },
          { key: 'list', label: 'List', children: <JobsList realm={realm} base={base} /> },
          { key: 'capacity', label: 'Capacity', children: <CapacityView realm={realm} /> },
          ...(canSettle
            ? [
                { key: 'profitability', label: 'Profitability', children: <ProfitabilityView realm={realm} /> },
                { key: 'delivery', label: 'Delivery', children: <DeliveryView realm={realm} /> },
                { key: 'staff', label: 'Staff', children: <StaffSettings realm={realm} /> },
                { key: 'templates', label: 'Templates', children: <TemplateSettings realm={realm} /> },
              ]
            : []),
        ]}
      />
    </Flex>
  );
}
