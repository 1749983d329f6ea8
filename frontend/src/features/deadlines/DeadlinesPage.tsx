import { Flex, Typography } from 'antd';
import { useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../shared/use-page-title';
import { CalendarFeedCard } from './CalendarFeedCard';
import { DeadlinesWorkspace } from './DeadlinesWorkspace';

/** /admin/deadlines: every client's statutory deadlines. */
export function DeadlinesPage() {
  usePageTitle('Deadlines');
  const [params] = useSearchParams();
  return (
    <Flex vertical gap={16}>
      <div>
        <Typography.Title level={1}>Deadlines</Typography.Title>
        <Typography.Text type="secondary">
          Companies House, Corporation Tax, VAT, Self Assessment, PAYE and Making Tax Digital dates for every client.
        </Typography.Text>
      </div>
      <DeadlinesWorkspace initialClientId={params.get('client_id')} />
      <CalendarFeedCard />
    </Flex>
  );
}

export default DeadlinesPage;
