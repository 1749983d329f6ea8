import { Card, Skeleton, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { useThreadUnreadQuery } from './api';

/** The portal's Home: how many messages from the practice are unread, without marking them read. */
export function UnreadMessagesCard({ clientId }: { clientId: string }) {
  const q = useThreadUnreadQuery({ clientId, realm: 'user' }, { refetchOnMountOrArgChange: true });
  const unread = q.data?.unread ?? 0;
  const last = q.data?.messages.filter((m) => m.side === 'practice').at(-1);
  return (
    <Card title={<h2 className="requests-card-title">Messages</h2>} className="client-gap">
      {q.isLoading ? (
        <Skeleton active paragraph={{ rows: 1 }} />
      ) : q.isError ? (
        <Typography.Text type="danger">Your messages could not be loaded.</Typography.Text>
      ) : unread === 0 ? (
        <p>No unread messages.</p>
      ) : (
        <>
          <p>
            <strong>
              {unread} unread {unread === 1 ? 'message' : 'messages'}
            </strong>{' '}
            from your accountant{last ? `: “${last.body.length > 140 ? `${last.body.slice(0, 140)}…` : last.body}”` : '.'}
          </p>
        </>
      )}
      <Link to="/portal/messages">{unread > 0 ? 'Read and reply' : 'Open your messages'}</Link>
    </Card>
  );
}
