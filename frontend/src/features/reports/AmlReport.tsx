import { DownloadOutlined } from '@ant-design/icons';
import { AML_STATUSES, amlStatusLabel, type AmlReport as AmlReportData } from '@countinghouse/proto';
import { Alert, Button, Card, Empty, Skeleton, Table } from 'antd';
import { Link } from 'react-router-dom';
import { errorBody } from '../../app/api';
import { useAmlReportQuery } from '../aml/api';
import { BarChart, Legend } from './charts';
import { downloadCsv, toCsv } from './csv';

type Row = AmlReportData['rows'][number];
/** The risk bands, lowest first; "not assessed" is a file without risk answers yet. */
const RISKS = [
  { key: 'low', label: 'Low risk', color: '#52c41a' },
  { key: 'medium', label: 'Medium risk', color: '#faad14' },
  { key: 'high', label: 'High risk', color: '#ff4d4f' },
  { key: 'none', label: 'Not assessed', color: '#bfbfbf' },
] as const;
const total = (r: Row) => r.low + r.medium + r.high + r.none;
const count = (n: number) => n.toLocaleString('en-GB');

/**
 * AML due diligence: current clients by status and by risk (today, not the date range: due diligence is
 * a standing position), a stacked chart, its table and the CSV. Each status links to /admin/aml filtered.
 */
export function AmlReport() {
  const report = useAmlReportQuery();
  const rows = [...(report.data?.rows ?? [])].sort(
    (a, b) => AML_STATUSES.findIndex((s) => s.value === a.status) - AML_STATUSES.findIndex((s) => s.value === b.status),
  );
  const clients = rows.reduce((n, r) => n + total(r), 0);
  const csv = () =>
    toCsv(
      ['Status', ...RISKS.map((r) => r.label), 'Clients'],
      rows.map((r) => [amlStatusLabel(r.status), ...RISKS.map((k) => r[k.key]), total(r)]),
    );
  const ready = !report.isLoading && !report.isError;
  let body;
  if (report.isLoading) body = <Skeleton active paragraph={{ rows: 5 }} />;
  else if (report.isError)
    body = <Alert type="error" showIcon title={errorBody(report.error)?.message ?? 'The AML report could not be loaded.'} />;
  else if (clients === 0) body = <Empty className="report-card__empty" description="No current clients" />;
  else
    body = (
      <>
        <BarChart
          categories={rows.map((r) => amlStatusLabel(r.status))}
          series={RISKS.map((k) => ({ key: k.key, label: k.label, color: k.color, values: rows.map((r) => r[k.key]) }))}
          stacked
          integer
          formatValue={count}
          ariaLabel={`Clients by due diligence status and risk, ${clients} in all: ${rows.map((r) => `${amlStatusLabel(r.status)} ${total(r)}`).join(', ')}`}
        />
        <Legend items={RISKS.map((r) => ({ ...r }))} />
        <div role="region" aria-label="AML due diligence by status and risk (table)">
          <Table<Row>
            size="small"
            rowKey="status"
            pagination={false}
            dataSource={rows}
            scroll={{ x: 'max-content' }}
            columns={[
              {
                key: 'status',
                title: 'Status',
                render: (_: unknown, r) => <Link to={`/admin/aml?status=${r.status}`}>{amlStatusLabel(r.status)}</Link>,
              },
              ...RISKS.map((k) => ({
                key: k.key,
                title: k.label,
                align: 'right' as const,
                render: (_: unknown, r: Row) => count(r[k.key]),
              })),
              { key: 'total', title: 'Clients', align: 'right' as const, render: (_: unknown, r: Row) => count(total(r)) },
            ]}
          />
        </div>
      </>
    );
  return (
    <Card
      title="AML due diligence"
      className="report-card"
      aria-busy={report.isFetching}
      extra={
        <Button
          size="small"
          icon={<DownloadOutlined />}
          disabled={!ready}
          aria-label="Download CSV: AML due diligence by status and risk"
          onClick={() => downloadCsv(`countinghouse-aml-due-diligence-${new Date().toISOString().slice(0, 10)}.csv`, csv())}
        >
          Download CSV
        </Button>
      }
    >
      {body}
    </Card>
  );
}

export default AmlReport;
