import { formatCount } from '@countinghouse/proto';
import { useEffect, useState } from 'react';
import { Button, Card, Checkbox, Empty, Flex, Select, Table, Tabs, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import {
  formatDateTime,
  NOTIFICATION_KINDS,
  NOTIFICATION_KIND_VALUES,
  type Notification,
  type NotificationKind,
  type NotificationPreferences,
} from '@countinghouse/proto';
import { Link } from 'react-router-dom';
import { errorBody } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import {
  useMarkAllNotificationsReadMutation,
  useMarkNotificationReadMutation,
  useNotificationPreferencesQuery,
  useNotificationsListQuery,
  useNotificationsUnreadCountQuery,
  useSaveNotificationPreferencesMutation,
} from './api';
import { KIND_COLOUR, KIND_LABEL } from './labels';
import './notifications.css';

type Status = 'unread' | 'all';

/** /admin/notifications: unread and all, by kind, mark read, mark all read, and what this administrator receives. */
export function AdminNotificationsPage() {
  usePageTitle('Notifications');
  const toast = useToast();
  const [status, setStatus] = useState<Status>('unread');
  const [kind, setKind] = useState<NotificationKind | 'all'>('all');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  useEffect(() => setPage(1), [status, kind]);

  const list = useNotificationsListQuery({ status, kind, page, page_size: pageSize });
  const unread = useNotificationsUnreadCountQuery();
  const [markRead] = useMarkNotificationReadMutation();
  const [markAll, markingAll] = useMarkAllNotificationsReadMutation();
  const unreadCount = unread.data?.count ?? 0;

  const failed = (error: unknown) => {
    const body = errorBody(error);
    if (body) toast.error(serverText(body.message));
  };
  const onMarkRead = (id: string) => markRead(id).unwrap().catch(failed);
  const onMarkAll = () => markAll().unwrap().catch(failed);

  const columns: TableColumnsType<Notification> = [
    {
      title: 'Notification',
      key: 'what',
      render: (_, n) => (
        <div>
          <Typography.Text className="notifications-page__title">{n.title}</Typography.Text>
          <span className="notifications-page__body">{n.body}</span>
          <Link to={n.link} onClick={() => !n.is_read && void onMarkRead(n.id)}>
            Open
          </Link>
        </div>
      ),
    },
    {
      title: 'Kind',
      dataIndex: 'kind',
      width: 190,
      render: (k: NotificationKind) => <Tag color={KIND_COLOUR[k]}>{KIND_LABEL[k]}</Tag>,
    },
    {
      title: 'Date',
      dataIndex: 'created_at',
      width: 170,
      render: (d: string) => <span className="notifications-page__time">{formatDateTime(d)}</span>,
    },
    {
      title: 'Action',
      key: 'action',
      fixed: 'right' as const,
      width: 130,
      render: (_, n) =>
        n.is_read ? (
          <Typography.Text type="secondary">Read</Typography.Text>
        ) : (
          <Button size="small" onClick={() => void onMarkRead(n.id)} aria-label={`Mark read: ${n.body}`}>
            Mark read
          </Button>
        ),
    },
  ];

  const unreadTab = unreadCount > 0 ? `Unread (${formatCount(unreadCount)}${unread.data?.capped ? '+' : ''})` : 'Unread';
  const filtered = kind !== 'all';
  const emptyText =
    status === 'unread'
      ? filtered
        ? `No unread ${KIND_LABEL[kind].toLowerCase()} notifications`
        : 'You are all caught up: no unread notifications'
      : filtered
        ? `No ${KIND_LABEL[kind].toLowerCase()} notifications`
        : 'No notifications yet';

  return (
    <Flex vertical gap={16} className="notifications-page">
      <div>
        <Typography.Title level={1} style={{ marginBottom: 4 }}>
          Notifications
        </Typography.Title>
        <Typography.Text type="secondary">New clients, failed payments, uploads, accepted invitations and failed syncs.</Typography.Text>
      </div>
      <Card>
        <Flex justify="space-between" align="center" wrap gap={12}>
          <Tabs
            activeKey={status}
            onChange={(k) => setStatus(k as Status)}
            items={[
              { key: 'unread', label: unreadTab },
              { key: 'all', label: 'All' },
            ]}
          />
          <Flex gap={8} align="center" wrap>
            <Select
              aria-label="Kind"
              value={kind}
              onChange={setKind}
              style={{ minWidth: 210 }}
              options={[{ value: 'all', label: 'All kinds' }, ...NOTIFICATION_KINDS.map((k) => ({ value: k.value, label: k.label }))]}
            />
            <Button onClick={() => void onMarkAll()} loading={markingAll.isLoading} disabled={unreadCount === 0}>
              Mark all read
            </Button>
          </Flex>
        </Flex>
        <Table<Notification>
          rowKey="id"
          columns={columns}
          dataSource={list.data?.notifications ?? []}
          loading={list.isFetching}
          rowClassName={(n) => (n.is_read ? '' : 'notifications-page__row--unread')}
          locale={{ emptyText: list.isLoading ? ' ' : <Empty description={emptyText} /> }}
          pagination={{
            current: page,
            pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            onChange: (p, s) => {
              setPage(s !== pageSize ? 1 : p);
              setPageSize(s);
            },
            showTotal: (total) => `${formatCount(total)}${list.data && !list.data.total_exact ? '+' : ''} notifications`,
          }}
          scroll={{ x: 720 }}
          tableLayout="auto"
        />
      </Card>
      <PreferencesCard />
    </Flex>
  );
}

/** Which kinds this administrator receives (every kind until they turn one off), saved per administrator. */
function PreferencesCard() {
  const toast = useToast();
  const prefs = useNotificationPreferencesQuery();
  const [save, saving] = useSaveNotificationPreferencesMutation();
  const [draft, setDraft] = useState<NotificationPreferences['kinds'] | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (prefs.data) setDraft(prefs.data.kinds);
  }, [prefs.data]);

  const dirty = Boolean(draft && prefs.data && NOTIFICATION_KIND_VALUES.some((k) => draft[k] !== prefs.data!.kinds[k]));
  const onSave = async () => {
    if (!draft) return;
    try {
      await save({ kinds: draft }).unwrap();
      setSaved(true);
    } catch (error) {
      const body = errorBody(error);
      if (body) toast.error(serverText(body.message));
    }
  };

  return (
    <Card title="What I receive" loading={prefs.isLoading}>
      <Typography.Paragraph type="secondary">
        Choose which notifications reach you. Your choice is yours alone; other administrators keep theirs.
      </Typography.Paragraph>
      {draft && (
        <Flex vertical gap={8} role="group" aria-label="Notification kinds I receive">
          {NOTIFICATION_KINDS.map((k) => (
            <Checkbox
              key={k.value}
              checked={draft[k.value]}
              onChange={(e) => {
                setSaved(false);
                setDraft({ ...draft, [k.value]: e.target.checked });
              }}
            >
              {k.label}
            </Checkbox>
          ))}
        </Flex>
      )}
      <Flex gap={12} align="center" style={{ marginTop: 16 }}>
        <Button type="primary" onClick={() => void onSave()} loading={saving.isLoading} disabled={!dirty}>
          Save preferences
        </Button>
        {saved && !dirty && (
          <Typography.Text type="success" role="status">
            Preferences saved
          </Typography.Text>
        )}
      </Flex>
    </Card>
  );
}

export default AdminNotificationsPage;
