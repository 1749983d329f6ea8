import { AML_MESSAGES, AML_OUTSTANDING_STATUSES } from '@countinghouse/proto';
import { Alert, Card, Statistic } from 'antd';
import { Link } from 'react-router-dom';
import { useAmlReportQuery } from './api';

/**
 * The control panel's count of current clients with due diligence outstanding (not started, in progress,
 * awaiting approval, expired), linking to /admin/aml filtered to them.
 */
export function AmlOutstandingCard() {
  const report = useAmlReportQuery();
  const outstanding = (report.data?.rows ?? [])
    .filter((r) => AML_OUTSTANDING_STATUSES.includes(r.status))
    .reduce((n, r) => n + r.low + r.medium + r.high + r.none, 0);
  return (
    <Card size="small" data-testid="aml-outstanding-card">
      {report.isError ? (
        <Alert type="error" title="The due diligence count could not be loaded." />
      ) : (
        <Statistic
          title={<Link to="/admin/aml?status=outstanding">{AML_MESSAGES.outstandingBadge}</Link>}
          value={outstanding}
          loading={report.isLoading}
          suffix={outstanding === 1 ? 'client' : 'clients'}
        />
      )}
    </Card>
  );
}

export default AmlOutstandingCard;
