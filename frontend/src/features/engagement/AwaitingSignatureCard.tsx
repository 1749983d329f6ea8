import { Card, Statistic } from 'antd';
import { useEngagementOverviewQuery } from './api';

/** The control panel's count of clients whose engagement letter awaits signature. */
export function AwaitingSignatureCard() {
  const q = useEngagementOverviewQuery({ realm: 'admin' });
  return (
    <Card size="small" style={{ maxWidth: 320 }}>
      <Statistic
        title="Engagement letters awaiting signature"
        value={q.isError ? 'Could not load' : (q.data?.awaiting_signature ?? '…')}
        loading={q.isLoading}
      />
    </Card>
  );
}
