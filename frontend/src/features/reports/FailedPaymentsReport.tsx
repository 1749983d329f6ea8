import { formatDate, formatGBP, type FailedPayment, type FailedPaymentsMonth } from '@countinghouse/proto';
import { Flex, Typography } from 'antd';
import { csvDate, csvFilename, csvPounds, downloadCsv } from './csv';
import { useFailedPaymentsReportQuery } from './api';
import { BarChart } from './charts';
import { monthAxisLabel, monthLabel } from './format';
import { CsvButton, Headline, ReportCard } from './shared/ReportCard';
import { csvOf, ReportTable, type Column } from './shared/ReportTable';
import { count, reportQueryOptions, wholePounds, type ReportProps } from './shared/labels';

const amount = <R extends { amount: number }>(): Column<R> => ({
  title: 'Amount',
  csvTitle: 'Amount (GBP)',
  show: (r) => formatGBP(r.amount),
  csv: (r) => csvPounds(r.amount),
  numeric: true,
});

const monthColumns: Column<FailedPaymentsMonth>[] = [
  { title: 'Month', show: (r) => monthLabel(r.month), csv: (r) => monthLabel(r.month) },
  { title: 'Failed payments', show: (r) => count(r.count), csv: (r) => r.count, numeric: true },
  amount<FailedPaymentsMonth>(),
];
const paymentColumns: Column<FailedPayment>[] = [
  { title: 'Date', show: (r) => formatDate(r.occurred_at), csv: (r) => csvDate(r.occurred_at) },
  { title: 'Client e-mail', show: (r) => r.email, csv: (r) => r.email },
  { title: 'Package', show: (r) => r.package_name, csv: (r) => r.package_name },
  amount<FailedPayment>(),
  { title: 'Invoice', show: (r) => r.provider_invoice_id ?? '—', csv: (r) => r.provider_invoice_id ?? '' },
];

export function FailedPaymentsHeadline({ range, skip }: ReportProps) {
  const failed = useFailedPaymentsReportQuery(range, reportQueryOptions(skip));
  return (
    <Headline
      title="Failed payments"
      loading={failed.isLoading || !failed.data}
      value={count(failed.data?.total_count ?? 0)}
      note={failed.data && formatGBP(failed.data.total_amount)}
    />
  );
}

/** Failed payments by month, and each of them (billing). */
export function FailedPaymentsReport({ range, skip }: ReportProps) {
  const failed = useFailedPaymentsReportQuery(range, reportQueryOptions(skip));
  const months = failed.data?.months ?? [];
  const payments = failed.data?.payments ?? [];
  return (
    <ReportCard
      title="Failed payments"
      query={failed}
      isEmpty={(failed.data?.total_count ?? 0) === 0}
      emptyText="No failed payments in this range"
      csv={{ label: 'Failed payments by month', name: 'failed-payments-by-month', range, build: () => csvOf(monthColumns, months) }}
    >
      <BarChart
        categories={months.map((m) => monthLabel(m.month))}
        axisLabels={months.map((m) => monthAxisLabel(m.month))}
        series={[{ key: 'amount', label: 'Failed', color: '#ff7875', values: months.map((m) => m.amount) }]}
        formatValue={formatGBP}
        formatAxis={wholePounds}
        ariaLabel={`Failed payments by month: ${months.map((m) => `${monthLabel(m.month)} ${m.count} (${formatGBP(m.amount)})`).join(', ')}`}
      />
      <ReportTable label="Failed payments by month" rows={months} columns={monthColumns} rowKey={(r) => r.month} pageSize={12} />
      <Flex justify="space-between" align="center">
        <Typography.Title level={5} style={{ margin: 0 }}>
          Every failed payment
        </Typography.Title>
        <CsvButton
          label="Failed payments"
          onClick={() => downloadCsv(csvFilename('failed-payments', range), csvOf(paymentColumns, payments))}
        />
      </Flex>
      <ReportTable label="Failed payments" rows={payments} columns={paymentColumns} rowKey={(r) => r.id} pageSize={10} />
    </ReportCard>
  );
}
