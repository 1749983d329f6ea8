import { Alert, Card, List, Skeleton, Typography } from 'antd';
import { deadlineKindLabel, formatDate } from '@countinghouse/proto';
import { useMyDeadlinesQuery } from './api';
import { StatusTag } from './DeadlineTable';

/** The client dashboard's "Your next deadlines". */
export function MyDeadlinesCard() {
  const mine = useMyDeadlinesQuery();
  return (
    <Card title="Your next deadlines">
      {mine.isLoading ? (
        <Skeleton active />
      ) : mine.isError ? (
        <Alert type="error" showIcon title="Your deadlines could not be loaded" />
      ) : (
        <List
          locale={{ emptyText: 'No deadlines yet: your accountant will set them up' }}
          dataSource={mine.data?.deadlines ?? []}
          renderItem={(d) => (
            <List.Item extra={<StatusTag status={d.status} />}>
              <List.Item.Meta
                title={
                  <Typography.Text type={d.status === 'overdue' ? 'danger' : undefined}>
                    {formatDate(d.due_on)}: {deadlineKindLabel(d.kind)}
                  </Typography.Text>
                }
                description={d.period}
              />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
