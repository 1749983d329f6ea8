import { formatDate, londonToday, reportRangeProblem } from '@countinghouse/proto';
import { Alert, Col, DatePicker, Flex, Row, Typography } from 'antd';
import dayjs from 'dayjs';
import { usePageTitle } from '../../shared/use-page-title';
import { ClientsByPackageReport, ClientsByStatusReport, NewClientsHeadline } from './ClientsReports';
import { FailedPaymentsHeadline, FailedPaymentsReport } from './FailedPaymentsReport';
import { LeadFunnelReport, LeadSourcesReport, NewLeadsHeadline } from './LeadsReports';
import { MrrHeadline, MrrReport } from './MrrReport';
import { reportPresets, useReportRange } from './range';
import type { ReportProps } from './shared/labels';
import { UploadsHeadline, UploadsReport } from './UploadsReport';
import { AmlReport } from './AmlReport';
import './reports.css';

// /admin/reports: each figure comes from the service that owns it (billing, crm, documents), through
// that service's report endpoint; each report is its own component with its own query (RTK Query
// shares one request between components asking for the same range); this page only lays them out.

const HEADLINES = [MrrHeadline, NewClientsHeadline, NewLeadsHeadline, UploadsHeadline, FailedPaymentsHeadline];

export function ReportsPage() {
  usePageTitle('Reports');
  const [range, setRange] = useReportRange();
  const problem = reportRangeProblem(range.from, range.to);
  const report: ReportProps = { range, skip: problem !== null };

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
          presets={reportPresets()}
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
        {HEADLINES.map((Figure, i) => (
          <Col key={i} xs={24} sm={12} xl={{ flex: '20%' }}>
            <Figure {...report} />
          </Col>
        ))}
      </Row>

      <MrrReport {...report} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <ClientsByPackageReport {...report} />
        </Col>
        <Col xs={24} xl={10}>
          <ClientsByStatusReport {...report} />
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <LeadFunnelReport {...report} />
        </Col>
        <Col xs={24} xl={12}>
          <LeadSourcesReport {...report} />
        </Col>
      </Row>
      <UploadsReport {...report} />
      <FailedPaymentsReport {...report} />
      <AmlReport />
    </Flex>
  );
}

export default ReportsPage;
