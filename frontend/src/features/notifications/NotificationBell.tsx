import { useState } from 'react';
import { Badge, Button, Empty, Flex, Popover, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { formatDateTime, type Notification } from '@countinghouse/proto';
import { Link, useNavigate } from 'react-router-dom';
import {
  useMarkAllNotificationsReadMutation,
  useMarkNotificationReadMutation,
  useNotificationsListQuery,
  useNotificationsUnreadCountQuery,
} from './api';
import { badgeText, NOTIFICATIONS_PAGE, NOTIFICATIONS_POLL_MS } from './labels';
import './notifications.css';
import { LoadingSpin } from '../../shared/LoadingSpin';

/** How many of the latest the dropdown shows. */
const BELL_LATEST = 5;

/**
 * The admin header's bell: the real unread count (polled every 30 s; no badge at 0, '99+' above 99),
 * and on click the latest few, 'Mark all read' and the way to the Notifications page.
 */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const { data: unread } = useNotificationsUnreadCountQuery(undefined, {
    pollingInterval: NOTIFICATIONS_POLL_MS,
    skipPollingIfUnfocused: true,
  });
  const count = unread?.count ?? 0;
  const label = count > 0 ? `Notifications (${badgeText(count)} unread)` : 'Notifications';

  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      arrow={false}
      destroyOnHidden
      content={<BellPanel onClose={() => setOpen(false)} />}
    >
      <Badge count={count} overflowCount={99} size="small">
        <Button type="text" shape="circle" icon={<BellOutlined />} aria-label={label} aria-haspopup="dialog" aria-expanded={open} />
      </Badge>
    </Popover>
  );
}

function BellPanel({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const latest = useNotificationsListQuery({ status: 'all', page: 1, page_size: BELL_LATEST });
  const [markRead] = useMarkNotificationReadMutation();
  const [markAll, markingAll] = useMarkAllNotificationsReadMutation();
  const items = latest.data?.notifications ?? [];

  const openOne = (n: Notification) => {
    if (!n.is_read) void markRead(n.id);
    onClose();
    navigate(n.link);
  };

  return (
    <div className="notification-bell" role="dialog" aria-label="Latest notifications">
      <Flex justify="space-between" align="center" className="notification-bell__head">
        <Typography.Text strong>Notifications</Typography.Text>
        <Button
          size="small"
          type="link"
          onClick={() => void markAll()}
          loading={markingAll.isLoading}
          disabled={items.every((n) => n.is_read)}
        >
          Mark all read
        </Button>
      </Flex>
      {latest.isLoading ? (
        <Flex justify="center" className="notification-bell__empty">
          <LoadingSpin size="small" label="Loading notifications" />
        </Flex>
      ) : items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No notifications yet" className="notification-bell__empty" />
      ) : (
        <ul className="notification-bell__list">
          {items.map((n) => (
            <li key={n.id}>
              <button
                type="button"
                className={`notification-bell__item${n.is_read ? '' : ' notification-bell__item--unread'}`}
                onClick={() => openOne(n)}
              >
                <span className="notification-bell__title">{n.title}</span>
                <span className="notification-bell__body">{n.body}</span>
                <span className="notification-bell__time">{formatDateTime(n.created_at)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="notification-bell__foot">
        <Link to={NOTIFICATIONS_PAGE} onClick={onClose}>
          View all notifications
        </Link>
      </div>
    </div>
  );
}
