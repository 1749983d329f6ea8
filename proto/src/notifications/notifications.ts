import { Type, type Static } from '@sinclair/typebox';
import { PageNumber } from '../text.js';

// Contracts of the notifications service (routes under /api/notifications). Browser-safe.

/** What an administrator can be told about, in the order the preferences list them. */
export const NOTIFICATION_KINDS = [
  { value: 'new_client', label: 'New client' },
  { value: 'payment_failed', label: 'Failed payment' },
  { value: 'document_uploaded', label: 'Document uploaded' },
  { value: 'invitation_accepted', label: 'Invitation accepted' },
  { value: 'integration_sync_failed', label: 'Integration sync failed' },
  { value: 'job_failed', label: 'Background job failed' },
  { value: 'deadline_overdue', label: 'Deadline overdue' },
  { value: 'aml_review_due', label: 'AML review due' },
  { value: 'engagement_signed', label: 'Engagement letter signed' },
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]['value'];
export const NOTIFICATION_KIND_VALUES: NotificationKind[] = NOTIFICATION_KINDS.map((k) => k.value);

export const NOTIFICATIONS_ROUTES = {
  list: '/api/notifications',
  unreadCount: '/api/notifications/unread-count',
  markRead: (id: string) => `/api/notifications/${encodeURIComponent(id)}/read`,
  markAllRead: '/api/notifications/read-all',
  preferences: '/api/notifications/preferences',
} as const;

/**
 * The unread count stops counting here: the bell shows '99+' long before, and a bounded count stays
 * cheap for an administrator who has never marked anything read.
 */
export const UNREAD_COUNT_CAP = 1000;
/** How often the bell asks (as the sidebar's counts). */
export const NOTIFICATIONS_POLL_SECONDS = 30;

export const NotificationKindSchema = Type.Union(NOTIFICATION_KIND_VALUES.map((k) => Type.Literal(k)));

export const NotificationSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: NotificationKindSchema,
  title: Type.String(),
  body: Type.String(),
  /** The admin page about it, e.g. '/admin/clients?open=…'. */
  link: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  /** The event that raised it (one notification per event). */
  source_event_id: Type.String({ format: 'uuid' }),
  is_read: Type.Boolean(),
});
export type Notification = Static<typeof NotificationSchema>;

export const NotificationListQuerySchema = Type.Object({
  status: Type.Union([Type.Literal('unread'), Type.Literal('all')], { default: 'all' }),
  kind: Type.Optional(Type.Union([Type.Literal('all'), NotificationKindSchema])),
  page: PageNumber(),
  page_size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
export type NotificationListQuery = Static<typeof NotificationListQuerySchema>;

export const NotificationListSchema = Type.Object({
  notifications: Type.Array(NotificationSchema),
  /** Exact up to 10,000; beyond that it is 10,000 and `total_exact` is false. */
  total: Type.Integer(),
  total_exact: Type.Boolean(),
  page: Type.Integer(),
  page_size: Type.Integer(),
});
export type NotificationList = Static<typeof NotificationListSchema>;

export const UnreadCountSchema = Type.Object({
  /** Exact up to UNREAD_COUNT_CAP; `capped` says there are at least that many. */
  count: Type.Integer({ minimum: 0 }),
  capped: Type.Boolean(),
});
export type UnreadCount = Static<typeof UnreadCountSchema>;

/** Which kinds this administrator receives; every kind is on until they turn it off. */
export const NotificationPreferencesSchema = Type.Object({
  kinds: Type.Object(
    {
      new_client: Type.Boolean(),
      payment_failed: Type.Boolean(),
      document_uploaded: Type.Boolean(),
      integration_sync_failed: Type.Boolean(),
      invitation_accepted: Type.Boolean(),
      job_failed: Type.Boolean(),
      deadline_overdue: Type.Boolean(),
      aml_review_due: Type.Boolean(),
      engagement_signed: Type.Boolean(),
    } satisfies Record<NotificationKind, unknown>,
    { additionalProperties: false },
  ),
});
export type NotificationPreferences = Static<typeof NotificationPreferencesSchema>;

export const MarkReadReplySchema = Type.Object({ success: Type.Boolean(), unread: UnreadCountSchema });
export type MarkReadReply = Static<typeof MarkReadReplySchema>;
