import { Alert, Card, List, Skeleton, Typography } from 'antd';
import { deadlineKindLabel, formatDate } from '@countinghouse/proto';
import { Link } from 'react-router-dom';
import { useMyDeadlinesQuery } from './api';
import { clientActionOf } from './client-actions';
import { StatusTag } from './DeadlineTable';

export interface MyDeadlinesCardProps {
  /** Only the first n still open (the portal's Home); all of them when absent. */
  limit?: number;
  /** With what the client must do and by when (issue 33, item 4). */
  withActions?: boolean;
  /** A link to the full list, shown when some are left out. */
  moreTo?: string;
  title?: string;
}

/** The client's "Your next deadlines" (the portal's Home and Deadlines pages). */
export function MyDeadlinesCard({ limit, withActions = false, moreTo, title = 'Your next deadlines' }: MyDeadlinesCardProps = {}) {
  const mine = useMyDeadlinesQuery();
  const all = mine.data?.deadlines ?? [];
  const today = mine.data?.today ?? new Date().toISOString().slice(0, 10);
  const shown = limit === undefined ? all : all.filter((d) => d.status !== 'done').slice(0, limit);
  return (
    <Card title={title}>
      {mine.isLoading ? (
        <Skeleton active />
      ) : mine.isError ? (
        <Alert type="error" showIcon title="Your deadlines could not be loaded" />
      ) : (
        <>
          <List
            locale={{ emptyText: 'No deadlines yet: your accountant will set them up' }}
            dataSource={shown}
            renderItem={(d) => {
              const action = withActions && d.status !== 'done' ? clientActionOf(d, today) : null;
              return (
                <List.Item extra={<StatusTag status={d.status} />}>
                  <List.Item.Meta
                    title={
                      <Typography.Text type={d.status === 'overdue' ? 'danger' : undefined}>
                        {formatDate(d.due_on)}: {deadlineKindLabel(d.kind)}
                      </Typography.Text>
                    }
                    description={
                      <>
                        <span>{d.period}</span>
                        {action && (
                          <span className="deadlines-client-action">
                            <br />
                            <strong>What you need to do:</strong> {action.text}{' '}
                            {action.late ? `as soon as you can (due ${formatDate(d.due_on)})` : `by ${formatDate(action.by)}`}.
                          </span>
                        )}
                      </>
                    }
                  />
                </List.Item>
              );
            }}
          />
          {moreTo && limit !== undefined && all.length > shown.length && (
            <p>
              <Link to={moreTo}>All your deadlines</Link>
            </p>
          )}
        </>
      )}
    </Card>
  );
}
