import { Alert, Flex, List, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { formatDate, ITEM_KINDS, type ClientRequest, type RequestItem } from '@countinghouse/proto';
import { errorBody, type AuthRealm } from '../../app/api';
import { serverText } from '../../shared/toast';
import { useMeQuery } from '../auth/api';
import { hasStaffPortalAccess } from '../auth/session';
import { useRequestsQuery } from '../requests/api';

const REQUEST_STATUS: Record<ClientRequest['status'], { text: string; colour: string }> = {
  open: { text: 'Open', colour: 'blue' },
  complete: { text: 'Complete', colour: 'green' },
  cancelled: { text: 'Cancelled', colour: 'default' },
};
const ITEM_STATUS: Record<RequestItem['status'], { text: string; colour: string }> = {
  requested: { text: 'Requested', colour: 'default' },
  submitted: { text: 'Submitted, waiting for review', colour: 'blue' },
  accepted: { text: 'Accepted', colour: 'green' },
  rejected: { text: 'Rejected', colour: 'red' },
};
const RANK: Record<ClientRequest['status'], number> = { open: 0, complete: 1, cancelled: 2 };

const londonToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
const waiting = (days: number) => (days === 1 ? 'waiting 1 day' : `waiting ${days} days`);

/** Where the practice's Requests page is: the staff portal's Requests tab (the admin panel has none yet). */
export const REQUESTS_PAGE = '/staff/dashboard?tab=requests';

/**
 * The client record's Requests tab (issues 26 and 28): the client's requests, open ones first by due
 * date, with their open items, what waits for review and the due date; each row opens its items.
 * Sending, reviewing and reminding happen on the Requests page, linked from here for those who have it.
 */
export function ClientRequestsTab({ clientId, realm }: { clientId: string; realm: AuthRealm }) {
  const q = useRequestsQuery({ client_id: clientId, realm });
  const me = useMeQuery(undefined, { skip: realm !== 'user' });
  const canOpenPage = realm === 'user' && hasStaffPortalAccess(me.data);
  const today = londonToday();
  if (q.isError)
    return <Alert type="error" showIcon title={serverText(errorBody(q.error)?.message ?? "The client's requests could not be loaded")} />;
  const rows = [...(q.data?.requests ?? [])].sort((a, b) => RANK[a.status] - RANK[b.status] || a.due_on.localeCompare(b.due_on));
  const open = rows.filter((r) => r.status === 'open');
  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={8} justify="space-between" align="center">
        <Typography.Text>
          {q.data
            ? open.length === 0
              ? 'No open requests'
              : `${open.length} open request${open.length === 1 ? '' : 's'}, ${open.reduce((n, r) => n + r.open_items, 0)} open items`
            : ' '}
        </Typography.Text>
        {canOpenPage && <Link to={REQUESTS_PAGE}>Send or review on the Requests page</Link>}
      </Flex>
      <Table<ClientRequest>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        pagination={false}
        scroll={{ x: 'max-content' }}
        tableLayout="auto"
        dataSource={rows}
        locale={{ emptyText: 'No requests sent to this client yet' }}
        expandable={{
          expandedRowRender: (r) => <Items request={r} />,
          rowExpandable: (r) => r.items.length > 0,
        }}
        columns={[
          {
            title: 'Request',
            dataIndex: 'title',
            render: (title: string, r) => (
              <>
                <Typography.Text strong={r.status === 'open'}>{title}</Typography.Text>
                {r.deadline_id && <Tag className="client-requests__deadline">For a deadline</Tag>}
              </>
            ),
          },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (s: ClientRequest['status']) => <Tag color={REQUEST_STATUS[s].colour}>{REQUEST_STATUS[s].text}</Tag>,
          },
          {
            title: 'Open items',
            key: 'open_items',
            render: (_: unknown, r) => `${r.open_items} of ${r.items.length}`,
          },
          {
            title: 'To review',
            dataIndex: 'awaiting_review',
            render: (n: number) => (n > 0 ? <Tag color="blue">{n}</Tag> : 0),
          },
          {
            title: 'Due',
            dataIndex: 'due_on',
            render: (d: string, r) =>
              r.status === 'open' && d < today ? (
                <Typography.Text type="danger" strong>
                  {formatDate(d)} (overdue)
                </Typography.Text>
              ) : (
                formatDate(d)
              ),
          },
          {
            title: 'Sent',
            dataIndex: 'sent_on',
            render: (d: string, r) => (r.status === 'open' ? `${formatDate(d)}, ${waiting(r.waiting_days)}` : formatDate(d)),
          },
        ]}
      />
    </Flex>
  );
}

function Items({ request }: { request: ClientRequest }) {
  return (
    <section aria-label={`Items of ${request.title}`}>
      <List
        size="small"
        dataSource={request.items}
        renderItem={(i) => (
          <List.Item>
            <Flex wrap gap={8} align="center">
              <span>{i.label}</span>
              <Typography.Text type="secondary">{ITEM_KINDS.find((k) => k.value === i.kind)?.label ?? i.kind}</Typography.Text>
              <Tag color={ITEM_STATUS[i.status].colour}>{ITEM_STATUS[i.status].text}</Tag>
              {i.status === 'rejected' && i.rejection_reason && <span>Reason: {i.rejection_reason}</span>}
            </Flex>
          </List.Item>
        )}
      />
    </section>
  );
}
