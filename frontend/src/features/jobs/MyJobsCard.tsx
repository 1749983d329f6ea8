import { Alert, Card, Empty, Flex, List, Skeleton, Tag, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { formatDate } from '@countinghouse/proto';
import { httpStatus, type AuthRealm } from '../../app/api';
import { useClientJobsQuery } from './client-jobs-api';
import { hours } from './JobBoard';

/** My work's jobs (issue 29): my open jobs (or everyone's), by due date; hidden for someone jobs refuse. */
export function MyJobsCard({ realm, base, mine }: { realm: AuthRealm; base: '/admin' | '/work'; mine: boolean }) {
  const jobs = useClientJobsQuery({ realm, mine, page: 1, page_size: 20 });
  if (jobs.isError && httpStatus(jobs.error) === 403) return null;
  const list = jobs.data?.jobs ?? [];
  const path = base === '/admin' ? '/admin/client-jobs' : '/work/jobs';
  return (
    <Card
      size="small"
      title={
        <Typography.Title level={2} className="my-work__bucket-title" style={{ fontSize: 18 }}>
          {mine ? 'My jobs' : 'Jobs'} <Tag color={jobs.data?.total ? 'blue' : 'default'}>{jobs.data?.total ?? 0}</Tag>
        </Typography.Title>
      }
      extra={<Link to={path}>All jobs</Link>}
    >
      {jobs.isLoading ? (
        <Skeleton active />
      ) : jobs.isError ? (
        <Alert type="error" showIcon title="Your jobs could not be loaded" />
      ) : list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No open jobs" />
      ) : (
        <List
          size="small"
          dataSource={list}
          renderItem={(j) => (
            <List.Item key={j.id} data-kind="job">
              <Flex vertical gap={2} style={{ minWidth: 0 }}>
                <Link to={`${path}/${j.id}`} className="my-work__client">
                  {j.client_name}
                </Link>
                <span>
                  <Tag>{j.stage}</Tag>
                  {j.title}
                </span>
                <Typography.Text type={j.overdue ? 'danger' : 'secondary'}>
                  Due {formatDate(j.due_on)} · {hours(j.used_minutes)} of {hours(j.budget_minutes)}
                </Typography.Text>
              </Flex>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
