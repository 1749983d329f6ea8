import { formatDate, formatGBP, MONTHLY_REVENUE_LABEL, type MrrPoint } from '@countinghouse/proto';
import { csvDate, csvPounds } from './csv';
import { useMrrReportQuery } from './api';
import { LineChart } from './charts';
import { monthAxisLabel, monthLabel } from './format';
import { Headline, ReportCard } from './shared/ReportCard';
import { csvOf, ReportTable, type Column } from './shared/ReportTable';
import { count, reportQueryOptions, wholePounds, type ReportProps } from './shared/labels';

const TITLE = 'Subscription fees at each month end';

const columns: Column<MrrPoint>[] = [
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

/** The headline: monthly revenue now (decision 93: active subscriptions, overdue apart). */
export function MrrHeadline({ range, skip }: ReportProps) {
  const mrr = useMrrReportQuery(range, reportQueryOptions(skip));
  return (
    <Headline
      title={MONTHLY_REVENUE_LABEL}
      loading={mrr.isLoading || !mrr.data}
      value={formatGBP(mrr.data?.active_mrr_now ?? 0)}
      note={mrr.data && `Active subscriptions now; ${formatGBP(mrr.data.overdue_mrr_now)} overdue apart`}
    />
  );
}

/** Subscription fees at each month end (billing). */
export function MrrReport({ range, skip }: ReportProps) {
  const mrr = useMrrReportQuery(range, reportQueryOptions(skip));
  const months = mrr.data?.months ?? [];
  return (
    <ReportCard
      title={TITLE}
      query={mrr}
      isEmpty={months.length === 0}
      emptyText="No months of this range have begun yet"
      csv={{ label: TITLE, name: 'subscription-fees', range, build: () => csvOf(columns, months) }}
    >
      <LineChart
        categories={months.map((m) => monthLabel(m.month))}
        axisLabels={months.map((m) => monthAxisLabel(m.month))}
        values={months.map((m) => m.mrr)}
        formatValue={formatGBP}
        formatAxis={wholePounds}
        ariaLabel={`${TITLE}: ${months.map((m) => `${monthLabel(m.month)} ${formatGBP(m.mrr)}`).join(', ')}`}
      />
      <ReportTable label={TITLE} rows={months} columns={columns} rowKey={(r) => r.month} pageSize={12} />
    </ReportCard>
  );
}
