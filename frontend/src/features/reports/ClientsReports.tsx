import { formatGBP, SUBSCRIPTION_STATUSES, type ClientsByPackage, type ClientsByStatus } from '@countinghouse/proto';
import { STATUS_LABELS } from '../crm/labels';
import { csvPounds } from './csv';
import { useClientsReportQuery } from './api';
import { BarChart, Legend, type Series } from './charts';
import { Headline, ReportCard } from './shared/ReportCard';
import { csvOf, ReportTable, type Column } from './shared/ReportTable';
import { count, packageLabel, packageShort, reportQueryOptions, STATUS_COLOURS, type ReportProps } from './shared/labels';

const fees = <R extends { monthly_fees: number }>(): Column<R> => ({
  title: 'Monthly fees',
  csvTitle: 'Monthly fees (GBP)',
  show: (r) => formatGBP(r.monthly_fees),
  csv: (r) => csvPounds(r.monthly_fees),
  numeric: true,
});

const packageColumns: Column<ClientsByPackage>[] = [
  { title: 'Package', show: (r) => packageLabel(r.package_name), csv: (r) => packageLabel(r.package_name) },
  ...SUBSCRIPTION_STATUSES.map((s): Column<ClientsByPackage> => ({
    title: STATUS_LABELS[s],
    show: (r) => count(r[s]),
    csv: (r) => r[s],
    numeric: true,
  })),
  { title: 'Total', show: (r) => count(r.clients), csv: (r) => r.clients, numeric: true },
  fees<ClientsByPackage>(),
];

const statusColumns: Column<ClientsByStatus>[] = [
  { title: 'Status', show: (r) => STATUS_LABELS[r.status], csv: (r) => STATUS_LABELS[r.status] },
  { title: 'Clients', show: (r) => count(r.clients), csv: (r) => r.clients, numeric: true },
  fees<ClientsByStatus>(),
];

const EMPTY = 'No clients registered in this range';

export function NewClientsHeadline({ range, skip }: ReportProps) {
  const clients = useClientsReportQuery(range, reportQueryOptions(skip));
  return (
    <Headline
      title="New clients"
      loading={clients.isLoading || !clients.data}
      value={count(clients.data?.total ?? 0)}
      note={clients.data && `${formatGBP(clients.data.monthly_fees)}/month in fees`}
    />
  );
}

/** Clients registered in the range, by package and status (crm). */
export function ClientsByPackageReport({ range, skip }: ReportProps) {
  const clients = useClientsReportQuery(range, reportQueryOptions(skip));
  const packages = clients.data?.by_package ?? [];
  const series: Series[] = SUBSCRIPTION_STATUSES.map((s) => ({
    key: s,
    label: STATUS_LABELS[s],
    color: STATUS_COLOURS[s],
    values: packages.map((p) => p[s]),
  }));
  return (
    <ReportCard
      title="Clients by package"
      query={clients}
      isEmpty={(clients.data?.total ?? 0) === 0}
      emptyText={EMPTY}
      csv={{ label: 'Clients by package', name: 'clients-by-package', range, build: () => csvOf(packageColumns, packages) }}
    >
      <BarChart
        categories={packages.map((p) => packageLabel(p.package_name))}
        axisLabels={packages.map((p) => packageShort(p.package_name))}
        series={series}
        stacked
        integer
        formatValue={count}
        ariaLabel={`Clients registered by package: ${packages.map((p) => `${packageLabel(p.package_name)} ${p.clients}`).join(', ')}`}
      />
      <Legend items={series} />
      <ReportTable label="Clients by package" rows={packages} columns={packageColumns} rowKey={(r) => r.package_name ?? '(none)'} />
    </ReportCard>
  );
}

/** Clients registered in the range, by status (crm). */
export function ClientsByStatusReport({ range, skip }: ReportProps) {
  const clients = useClientsReportQuery(range, reportQueryOptions(skip));
  const rows = clients.data?.by_status ?? [];
  return (
    <ReportCard
      title="Clients by status"
      query={clients}
      isEmpty={(clients.data?.total ?? 0) === 0}
      emptyText={EMPTY}
      csv={{ label: 'Clients by status', name: 'clients-by-status', range, build: () => csvOf(statusColumns, rows) }}
    >
      <BarChart
        categories={rows.map((s) => STATUS_LABELS[s.status])}
        series={rows.map((s, i, all) => ({
          key: s.status,
          label: STATUS_LABELS[s.status],
          color: STATUS_COLOURS[s.status],
          values: all.map((_, j) => (j === i ? s.clients : 0)),
        }))}
        stacked
        integer
        width={360}
        formatValue={count}
        ariaLabel={`Clients registered by status: ${rows.map((s) => `${STATUS_LABELS[s.status]} ${s.clients}`).join(', ')}`}
      />
      <ReportTable label="Clients by status" rows={rows} columns={statusColumns} rowKey={(r) => r.status} />
    </ReportCard>
  );
}
