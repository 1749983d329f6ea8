import { formatDate, type UploadsWeek } from '@countinghouse/proto';
import { csvDate } from './csv';
import { useUploadsReportQuery } from './api';
import { BarChart, Legend, type Series } from './charts';
import { shortDay } from './format';
import { Headline, ReportCard } from './shared/ReportCard';
import { csvOf, ReportTable, type Column } from './shared/ReportTable';
import { count, DOCUMENT_TYPE_SERIES as TYPES, reportQueryOptions, type ReportProps } from './shared/labels';

const TITLE = 'Documents uploaded per week';

const columns: Column<UploadsWeek>[] = [
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

export function UploadsHeadline({ range, skip }: ReportProps) {
  const uploads = useUploadsReportQuery(range, reportQueryOptions(skip));
  return <Headline title="Documents uploaded" loading={uploads.isLoading || !uploads.data} value={count(uploads.data?.total ?? 0)} />;
}

/** Documents uploaded per week by type (documents). */
export function UploadsReport({ range, skip }: ReportProps) {
  const uploads = useUploadsReportQuery(range, reportQueryOptions(skip));
  const weeks = uploads.data?.weeks ?? [];
  const series: Series[] = TYPES.map((t) => ({ ...t, values: weeks.map((w) => w.by_type[t.key] ?? 0) }));
  return (
    <ReportCard
      title={TITLE}
      query={uploads}
      isEmpty={(uploads.data?.total ?? 0) === 0}
      emptyText="No documents uploaded in this range"
      csv={{ label: TITLE, name: 'documents-per-week', range, build: () => csvOf(columns, weeks) }}
    >
      <BarChart
        categories={weeks.map((w) => shortDay(w.week_start))}
        series={series}
        stacked
        integer
        formatValue={count}
        ariaLabel={`Documents uploaded per week by type, ${uploads.data?.total ?? 0} in all: ${TYPES.map((t) => `${t.label} ${uploads.data?.by_type[t.key] ?? 0}`).join(', ')}`}
      />
      <Legend items={TYPES} />
      <ReportTable label={TITLE} rows={weeks} columns={columns} rowKey={(r) => r.week_start} pageSize={13} />
    </ReportCard>
  );
}
