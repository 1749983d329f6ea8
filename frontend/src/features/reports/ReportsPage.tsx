import { DownloadOutlined } from '@ant-design/icons';
import {
  DOCUMENT_TYPES,
  REPORT_MESSAGES,
  SUBSCRIPTION_STATUSES,
  addYears,
  defaultReportRange,
  formatDate,
  formatGBP,
  londonToday,
  MONTHLY_REVENUE_LABEL,
  reportRangeProblem,
  type ClientsByPackage,
  type ClientsByStatus,
  type FailedPayment,
  type FailedPaymentsMonth,
  type LeadsBySource,
  type LeadsByStage,
  type MrrPoint,
  type ReportRangeQuery,
  type SubscriptionStatus,
  type UploadsWeek,
} from '@countinghouse/proto';
import { Alert, Button, Card, Col, DatePicker, Empty, Flex, Row, Skeleton, Statistic, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { errorBody } from '../../app/api';
import { usePageTitle } from '../../shared/use-page-title';
import { STAGE_LABELS, STATUS_LABELS } from '../crm/labels';
import { useClientsReportQuery, useFailedPaymentsReportQuery, useLeadsReportQuery, useMrrReportQuery, useUploadsReportQuery } from './api';
import { BarChart, FunnelChart, Legend, LineChart, type Series } from './charts';
import { monthAxisLabel, monthLabel, shortDay } from './format';
import { csvDate, csvFilename, csvPercent, csvPounds, downloadCsv, toCsv, type CsvCell } from './csv';
import { AmlReport } from './AmlReport';
import './reports.css';

// /admin/reports: each figure comes from the service that owns it (billing, crm, documents), through
// that service's report endpoint; this page only composes them (docs/decisions.md).

const STATUS_COLOURS: Record<SubscriptionStatus, string> = {
  active: '#52c41a',
  pending: '#1677ff',
  cancelled: '#bfbfbf',
  overdue: '#fa8c16',
};
const STAGE_COLOURS: Record<string, string> = {
  new_enquiry: '#1677ff',
  qualified: '#13c2c2',
  proposal_sent: '#722ed1',
  negotiation: '#fa8c16',
  won: '#52c41a',
  lost: '#ff4d4f',
};
const TYPE_COLOURS = ['#1677ff', '#52c41a', '#faad14', '#eb2f96', '#722ed1', '#13c2c2', '#fa541c', '#2f54eb', '#8c8c8c'];
const TYPES = DOCUMENT_TYPES.map((t, i) => ({
  key: t.value as string,
  label: t.label as string,
  color: TYPE_COLOURS[i % TYPE_COLOURS.length]!,
}));

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
const packageLabel = (name: string | null) => name ?? 'No package';
/** Shorter names under the bars. */
const packageShort = (name: string | null) => (name ? name.replace(/ Package$/, '').replace(/^Limited Company /, '') : 'None');
const sourceLabel = (source: string | null) => source ?? 'No source';
const count = (n: number) => n.toLocaleString('en-GB');
const wholePounds = (n: number) => `£${n.toLocaleString('en-GB')}`;

/** A table that is also a CSV file: each column says how it shows and how it exports. */
interface Column<R> {
  title: string;
  show: (r: R) => ReactNode;
  csv: (r: R) => CsvCell;
  /** The CSV header when it differs (money in GBP without the symbol). */
  csvTitle?: string;
  numeric?: boolean;
}

function csvOf<R>(columns: Column<R>[], rows: readonly R[]): string {
  return toCsv(
    columns.map((c) => c.csvTitle ?? c.title),
    rows.map((r) => columns.map((c) => c.csv(r))),
  );
}

function ReportTable<R>({
  label,
  rows,
  columns,
  rowKey,
  pageSize,
}: {
  label: string;
  rows: readonly R[];
  columns: Column<R>[];
  rowKey: (r: R) => string;
  pageSize?: number;
}) {
  const antColumns: ColumnsType<R> = columns.map((c, i) => ({
    key: String(i),
    title: c.title,
    align: c.numeric ? 'right' : 'left',
    render: (_: unknown, r: R) => c.show(r),
  }));
  return (
    <div role="region" aria-label={`${label} (table)`}>
      <Table<R>
        size="small"
        rowKey={rowKey}
        columns={antColumns}
        dataSource={rows as R[]}
        pagination={pageSize && rows.length > pageSize ? { pageSize, showSizeChanger: false, size: 'small' } : false}
        scroll={{ x: 'max-content' }}
      />
    </div>
  );
}

function CsvButton({ label, onClick, disabled }: { label: string; onClick: () => void; disabled?: boolean }) {
  return (
    <Button size="small" icon={<DownloadOutlined />} onClick={onClick} disabled={disabled} aria-label={`Download CSV: ${label}`}>
      Download CSV
    </Button>
  );
}

interface QueryState {
  isLoading: boolean;
  isFetching: boolean;
  isError: boolean;
  error?: unknown;
}

/** A chart and its table in one card, with its loading, error and empty states and the CSV button. */
function ReportCard({
  title,
  query,
  isEmpty,
  emptyText,
  csv,
  children,
}: {
  title: string;
  query: QueryState;
  isEmpty: boolean;
  emptyText: string;
  csv?: { label: string; name: string; build: () => string; range: ReportRangeQuery };
  children: ReactNode;
}) {
  const ready = !query.isLoading && !query.isError;
  let body: ReactNode;
  if (query.isLoading) body = <Skeleton active paragraph={{ rows: 5 }} />;
  else if (query.isError) body = <Alert type="error" showIcon title={errorBody(query.error)?.message ?? REPORT_MESSAGES.loadFailed} />;
  else if (isEmpty) body = <Empty className="report-card__empty" description={emptyText} />;
  else body = children;
  return (
    <Card
      title={title}
      className="report-card"
      aria-busy={query.isFetching}
      extra={
        csv && <CsvButton label={csv.label} disabled={!ready} onClick={() => downloadCsv(csvFilename(csv.name, csv.range), csv.build())} />
      }
    >
      {body}
    </Card>
  );
}

function Headline({ title, value, note, loading }: { title: string; value: string; note?: ReactNode; loading: boolean }) {
  return (
    <Card size="small">
      <Statistic title={title} value={loading ? '…' : value} />
      <div className="report-stat__note">{loading ? '\u00a0' : (note ?? '\u00a0')}</div>
    </Card>
  );
}

/** The range from ?from=&to= (shareable), else the last 12 months. */
function useRange(): [ReportRangeQuery, (r: ReportRangeQuery) => void] {
  const [params, setParams] = useSearchParams();
  const fallback = defaultReportRange();
  const range = { from: params.get('from') ?? fallback.from, to: params.get('to') ?? fallback.to };
  return [range, (r) => setParams({ from: r.from, to: r.to })];
}

const PRESETS = (() => {
  const today = dayjs(londonToday());
  return [
    { label: 'Last 12 months', value: [dayjs(defaultReportRange().from), today] as [Dayjs, Dayjs] },
    { label: 'Last 3 months', value: [today.subtract(2, 'month').startOf('month'), today] as [Dayjs, Dayjs] },
    { label: 'This year', value: [today.startOf('year'), today] as [Dayjs, Dayjs] },
    { label: 'Last year', value: [today.subtract(1, 'year').startOf('year'), today.subtract(1, 'year').endOf('year')] as [Dayjs, Dayjs] },
    { label: 'Last 5 years', value: [dayjs(addYears(londonToday(), -5)), today] as [Dayjs, Dayjs] },
  ];
})();

export function ReportsPage() {
  usePageTitle('Reports');
  const [range, setRange] = useRange();
  const problem = reportRangeProblem(range.from, range.to);
  const opts = { skip: problem !== null, refetchOnMountOrArgChange: true };
  const mrr = useMrrReportQuery(range, opts);
  const failed = useFailedPaymentsReportQuery(range, opts);
  const clients = useClientsReportQuery(range, opts);
  const leads = useLeadsReportQuery(range, opts);
  const uploads = useUploadsReportQuery(range, opts);

  const csvRange = range;

  // ---- tables (and their CSV) ----
  const mrrColumns: Column<MrrPoint>[] = [
    { title: 'Month', show: (r) => monthLabel(r.month), csv: (r) => monthLabel(r.month) },
    { title: 'Measured at end of', show: (r) => formatDate(`${r.as_of}T12:00:00Z`), csv: (r) => csvDate(r.as_of) },
    { title: 'Subscriptions', show: (r) => count(r.subscriptions), csv: (r) => r.subscriptions, numeric: true },
    {
      title: 'Fees (active and overdue)',
      csvTitle: 'Fees (GBP)',
      show: (r) => formatGBP(r.mrr),
      csv: (r) => csvPounds(r.mrr),
      numeric: true,
    },
  ];
  const statusColumns = SUBSCRIPTION_STATUSES.map((s): Column<ClientsByPackage> => ({
    title: STATUS_LABELS[s],
    show: (r) => count(r[s]),
    csv: (r) => r[s],
    numeric: true,
  }));
  const packageColumns: Column<ClientsByPackage>[] = [
    { title: 'Package', show: (r) => packageLabel(r.package_name), csv: (r) => packageLabel(r.package_name) },
    ...statusColumns,
    { title: 'Total', show: (r) => count(r.clients), csv: (r) => r.clients, numeric: true },
    {
      title: 'Monthly fees',
      csvTitle: 'Monthly fees (GBP)',
      show: (r) => formatGBP(r.monthly_fees),
      csv: (r) => csvPounds(r.monthly_fees),
      numeric: true,
    },
  ];
  const byStatusColumns: Column<ClientsByStatus>[] = [
    { title: 'Status', show: (r) => STATUS_LABELS[r.status], csv: (r) => STATUS_LABELS[r.status] },
    { title: 'Clients', show: (r) => count(r.clients), csv: (r) => r.clients, numeric: true },
    {
      title: 'Monthly fees',
      csvTitle: 'Monthly fees (GBP)',
      show: (r) => formatGBP(r.monthly_fees),
      csv: (r) => csvPounds(r.monthly_fees),
      numeric: true,
    },
  ];
  const leadTotal = leads.data?.total ?? 0;
  const stageColumns: Column<LeadsByStage>[] = [
    { title: 'Stage', show: (r) => STAGE_LABELS[r.stage], csv: (r) => STAGE_LABELS[r.stage] },
    { title: 'Leads', show: (r) => count(r.leads), csv: (r) => r.leads, numeric: true },
    {
      title: 'Share of leads',
      csvTitle: 'Share of leads (%)',
      show: (r) => percent(leadTotal ? r.leads / leadTotal : 0),
      csv: (r) => csvPercent(leadTotal ? r.leads / leadTotal : 0),
      numeric: true,
    },
  ];
  const sourceColumns: Column<LeadsBySource>[] = [
    { title: 'Source', show: (r) => sourceLabel(r.source), csv: (r) => sourceLabel(r.source) },
    { title: 'Leads', show: (r) => count(r.leads), csv: (r) => r.leads, numeric: true },
    { title: 'Won', show: (r) => count(r.won), csv: (r) => r.won, numeric: true },
    { title: 'Lost', show: (r) => count(r.lost), csv: (r) => r.lost, numeric: true },
    { title: 'Open', show: (r) => count(r.open), csv: (r) => r.open, numeric: true },
    {
      title: 'Conversion',
      csvTitle: 'Conversion (%)',
      show: (r) => percent(r.conversion_rate),
      csv: (r) => csvPercent(r.conversion_rate),
      numeric: true,
    },
  ];
  const weekColumns: Column<UploadsWeek>[] = [
    { title: 'Week', show: (r) => r.week, csv: (r) => r.week },
    { title: 'Starting', show: (r) => formatDate(`${r.week_start}T12:00:00Z`), csv: (r) => csvDate(r.week_start) },
    ...TYPES.map((t): Column<UploadsWeek> => ({
      title: t.label,
      show: (r) => count(r.by_type[t.key] ?? 0),
      csv: (r) => r.by_type[t.key] ?? 0,
      numeric: true,
    })),
    { title: 'Total', show: (r) => count(r.total), csv: (r) => r.total, numeric: true },
  ];
  const failedMonthColumns: Column<FailedPaymentsMonth>[] = [
    { title: 'Month', show: (r) => monthLabel(r.month), csv: (r) => monthLabel(r.month) },
    { title: 'Failed payments', show: (r) => count(r.count), csv: (r) => r.count, numeric: true },
    { title: 'Amount', csvTitle: 'Amount (GBP)', show: (r) => formatGBP(r.amount), csv: (r) => csvPounds(r.amount), numeric: true },
  ];
  const failedColumns: Column<FailedPayment>[] = [
    { title: 'Date', show: (r) => formatDate(r.occurred_at), csv: (r) => csvDate(r.occurred_at) },
    { title: 'Client e-mail', show: (r) => r.email, csv: (r) => r.email },
    { title: 'Package', show: (r) => r.package_name, csv: (r) => r.package_name },
    { title: 'Amount', csvTitle: 'Amount (GBP)', show: (r) => formatGBP(r.amount), csv: (r) => csvPounds(r.amount), numeric: true },
    { title: 'Invoice', show: (r) => r.provider_invoice_id ?? '—', csv: (r) => r.provider_invoice_id ?? '' },
  ];

  // ---- charts ----
  const mrrMonths = mrr.data?.months ?? [];
  const packages = clients.data?.by_package ?? [];
  const statusSeries: Series[] = SUBSCRIPTION_STATUSES.map((s) => ({
    key: s,
    label: STATUS_LABELS[s],
    color: STATUS_COLOURS[s],
    values: packages.map((p) => p[s]),
  }));
  const weeks = uploads.data?.weeks ?? [];
  const typeSeries: Series[] = TYPES.map((t) => ({ ...t, values: weeks.map((w) => w.by_type[t.key] ?? 0) }));
  const failedMonths = failed.data?.months ?? [];
  const sources = leads.data?.by_source ?? [];

  return (
    <Flex vertical gap={16} className="reports-page">
      <div>
        <Typography.Title level={1} className="reports-page__title">
          Reports
        </Typography.Title>
        <Typography.Text type="secondary">
          Revenue, clients, leads, documents and failed payments over the dates you choose (UK time).
        </Typography.Text>
      </div>

      <Flex wrap gap={12} align="center" className="reports-page__toolbar">
        <label htmlFor="report-range-from">
          <Typography.Text strong>Date range</Typography.Text>
        </label>
        <DatePicker.RangePicker
          id={{ start: 'report-range-from', end: 'report-range-to' }}
          format="DD/MM/YYYY"
          allowClear={false}
          value={problem?.path === 'from' ? null : [dayjs(range.from), dayjs(range.to)]}
          presets={PRESETS}
          disabledDate={(d) => d.isAfter(dayjs(londonToday()), 'day')}
          onChange={(v) => {
            if (v?.[0] && v[1]) setRange({ from: v[0].format('YYYY-MM-DD'), to: v[1].format('YYYY-MM-DD') });
          }}
        />
        {!problem && (
          <Typography.Text type="secondary">
            {formatDate(`${range.from}T12:00:00Z`)} to {formatDate(`${range.to}T12:00:00Z`)}
          </Typography.Text>
        )}
      </Flex>
      {problem && <Alert type="warning" showIcon title={problem.message} />}

      <Row gutter={[16, 16]}>
        <Col xs={24} sm={12} xl={{ flex: '20%' }}>
          <Headline
            title={MONTHLY_REVENUE_LABEL}
            loading={mrr.isLoading || !mrr.data}
            value={formatGBP(mrr.data?.active_mrr_now ?? 0)}
            note={mrr.data && `Active subscriptions now; ${formatGBP(mrr.data.overdue_mrr_now)} overdue apart`}
          />
        </Col>
        <Col xs={24} sm={12} xl={{ flex: '20%' }}>
          <Headline
            title="New clients"
            loading={clients.isLoading || !clients.data}
            value={count(clients.data?.total ?? 0)}
            note={clients.data && `${formatGBP(clients.data.monthly_fees)}/month in fees`}
          />
        </Col>
        <Col xs={24} sm={12} xl={{ flex: '20%' }}>
          <Headline
            title="New leads"
            loading={leads.isLoading || !leads.data}
            value={count(leads.data?.total ?? 0)}
            note={leads.data && `${percent(leads.data.conversion_rate)} won`}
          />
        </Col>
        <Col xs={24} sm={12} xl={{ flex: '20%' }}>
          <Headline title="Documents uploaded" loading={uploads.isLoading || !uploads.data} value={count(uploads.data?.total ?? 0)} />
        </Col>
        <Col xs={24} sm={12} xl={{ flex: '20%' }}>
          <Headline
            title="Failed payments"
            loading={failed.isLoading || !failed.data}
            value={count(failed.data?.total_count ?? 0)}
            note={failed.data && formatGBP(failed.data.total_amount)}
          />
        </Col>
      </Row>

      <ReportCard
        title="Subscription fees at each month end"
        query={mrr}
        isEmpty={mrrMonths.length === 0}
        emptyText="No months of this range have begun yet"
        csv={{
          label: 'Subscription fees at each month end',
          name: 'subscription-fees',
          range: csvRange,
          build: () => csvOf(mrrColumns, mrrMonths),
        }}
      >
        <LineChart
          categories={mrrMonths.map((m) => monthLabel(m.month))}
          axisLabels={mrrMonths.map((m) => monthAxisLabel(m.month))}
          values={mrrMonths.map((m) => m.mrr)}
          formatValue={formatGBP}
          formatAxis={wholePounds}
          ariaLabel={`Subscription fees at each month end: ${mrrMonths.map((m) => `${monthLabel(m.month)} ${formatGBP(m.mrr)}`).join(', ')}`}
        />
        <ReportTable
          label="Subscription fees at each month end"
          rows={mrrMonths}
          columns={mrrColumns}
          rowKey={(r) => r.month}
          pageSize={12}
        />
      </ReportCard>

      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <ReportCard
            title="Clients by package"
            query={clients}
            isEmpty={(clients.data?.total ?? 0) === 0}
            emptyText="No clients registered in this range"
            csv={{ label: 'Clients by package', name: 'clients-by-package', range: csvRange, build: () => csvOf(packageColumns, packages) }}
          >
            <BarChart
              categories={packages.map((p) => packageLabel(p.package_name))}
              axisLabels={packages.map((p) => packageShort(p.package_name))}
              series={statusSeries}
              stacked
              integer
              formatValue={count}
              ariaLabel={`Clients registered by package: ${packages.map((p) => `${packageLabel(p.package_name)} ${p.clients}`).join(', ')}`}
            />
            <Legend items={statusSeries} />
            <ReportTable label="Clients by package" rows={packages} columns={packageColumns} rowKey={(r) => r.package_name ?? '(none)'} />
          </ReportCard>
        </Col>
        <Col xs={24} xl={10}>
          <ReportCard
            title="Clients by status"
            query={clients}
            isEmpty={(clients.data?.total ?? 0) === 0}
            emptyText="No clients registered in this range"
            csv={{
              label: 'Clients by status',
              name: 'clients-by-status',
              range: csvRange,
              build: () => csvOf(byStatusColumns, clients.data?.by_status ?? []),
            }}
          >
            <BarChart
              categories={(clients.data?.by_status ?? []).map((s) => STATUS_LABELS[s.status])}
              series={(clients.data?.by_status ?? []).map((s, i, all) => ({
                key: s.status,
                label: STATUS_LABELS[s.status],
                color: STATUS_COLOURS[s.status],
                values: all.map((_, j) => (j === i ? s.clients : 0)),
              }))}
              stacked
              integer
              width={360}
              formatValue={count}
              ariaLabel={`Clients registered by status: ${(clients.data?.by_status ?? []).map((s) => `${STATUS_LABELS[s.status]} ${s.clients}`).join(', ')}`}
            />
            <ReportTable
              label="Clients by status"
              rows={clients.data?.by_status ?? []}
              columns={byStatusColumns}
              rowKey={(r) => r.status}
            />
          </ReportCard>
        </Col>
      </Row>

      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <ReportCard
            title="Lead funnel by stage"
            query={leads}
            isEmpty={leadTotal === 0}
            emptyText="No leads in this range"
            csv={{
              label: 'Lead funnel by stage',
              name: 'lead-funnel',
              range: csvRange,
              build: () => csvOf(stageColumns, leads.data?.by_stage ?? []),
            }}
          >
            <FunnelChart
              total={leadTotal}
              width={420}
              steps={(leads.data?.by_stage ?? []).map((s) => ({
                key: s.stage,
                label: STAGE_LABELS[s.stage],
                value: s.leads,
                color: STAGE_COLOURS[s.stage]!,
              }))}
              ariaLabel={`Leads by stage, in pipeline order: ${(leads.data?.by_stage ?? []).map((s) => `${STAGE_LABELS[s.stage]} ${s.leads}`).join(', ')}`}
            />
            <ReportTable label="Lead funnel by stage" rows={leads.data?.by_stage ?? []} columns={stageColumns} rowKey={(r) => r.stage} />
          </ReportCard>
        </Col>
        <Col xs={24} xl={12}>
          <ReportCard
            title="Leads by source"
            query={leads}
            isEmpty={leadTotal === 0}
            emptyText="No leads in this range"
            csv={{ label: 'Leads by source', name: 'leads-by-source', range: csvRange, build: () => csvOf(sourceColumns, sources) }}
          >
            <BarChart
              categories={sources.map((s) => sourceLabel(s.source))}
              series={[
                { key: 'leads', label: 'Leads', color: '#91caff', values: sources.map((s) => s.leads) },
                { key: 'won', label: 'Won', color: '#52c41a', values: sources.map((s) => s.won) },
              ]}
              integer
              width={420}
              formatValue={count}
              ariaLabel={`Leads by source with conversion: ${sources.map((s) => `${sourceLabel(s.source)} ${s.leads} leads, ${s.won} won (${percent(s.conversion_rate)})`).join(', ')}`}
            />
            <Legend
              items={[
                { key: 'leads', label: 'Leads', color: '#91caff' },
                { key: 'won', label: 'Won', color: '#52c41a' },
              ]}
            />
            <ReportTable label="Leads by source" rows={sources} columns={sourceColumns} rowKey={(r) => r.source ?? '(none)'} />
          </ReportCard>
        </Col>
      </Row>

      <ReportCard
        title="Documents uploaded per week"
        query={uploads}
        isEmpty={(uploads.data?.total ?? 0) === 0}
        emptyText="No documents uploaded in this range"
        csv={{ label: 'Documents uploaded per week', name: 'documents-per-week', range: csvRange, build: () => csvOf(weekColumns, weeks) }}
      >
        <BarChart
          categories={weeks.map((w) => shortDay(w.week_start))}
          series={typeSeries}
          stacked
          integer
          formatValue={count}
          ariaLabel={`Documents uploaded per week by type, ${uploads.data?.total ?? 0} in all: ${TYPES.map((t) => `${t.label} ${uploads.data?.by_type[t.key] ?? 0}`).join(', ')}`}
        />
        <Legend items={TYPES} />
        <ReportTable label="Documents uploaded per week" rows={weeks} columns={weekColumns} rowKey={(r) => r.week_start} pageSize={13} />
      </ReportCard>

      <ReportCard
        title="Failed payments"
        query={failed}
        isEmpty={(failed.data?.total_count ?? 0) === 0}
        emptyText="No failed payments in this range"
        csv={{
          label: 'Failed payments by month',
          name: 'failed-payments-by-month',
          range: csvRange,
          build: () => csvOf(failedMonthColumns, failedMonths),
        }}
      >
        <BarChart
          categories={failedMonths.map((m) => monthLabel(m.month))}
          axisLabels={failedMonths.map((m) => monthAxisLabel(m.month))}
          series={[{ key: 'amount', label: 'Failed', color: '#ff7875', values: failedMonths.map((m) => m.amount) }]}
          formatValue={formatGBP}
          formatAxis={wholePounds}
          ariaLabel={`Failed payments by month: ${failedMonths.map((m) => `${monthLabel(m.month)} ${m.count} (${formatGBP(m.amount)})`).join(', ')}`}
        />
        <ReportTable
          label="Failed payments by month"
          rows={failedMonths}
          columns={failedMonthColumns}
          rowKey={(r) => r.month}
          pageSize={12}
        />
        <Flex justify="space-between" align="center">
          <Typography.Title level={5} style={{ margin: 0 }}>
            Every failed payment
          </Typography.Title>
          <CsvButton
            label="Failed payments"
            onClick={() => downloadCsv(csvFilename('failed-payments', csvRange), csvOf(failedColumns, failed.data?.payments ?? []))}
          />
        </Flex>
        <ReportTable
          label="Failed payments"
          rows={failed.data?.payments ?? []}
          columns={failedColumns}
          rowKey={(r) => r.id}
          pageSize={10}
        />
      </ReportCard>

      <AmlReport />
    </Flex>
  );
}

export default ReportsPage;
