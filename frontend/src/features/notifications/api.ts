import {
  NOTIFICATIONS_ROUTES,
  type MarkReadReply,
  type NotificationList,
  type NotificationListQuery,
  type NotificationPreferences,
  type UnreadCount,
} from '@countinghouse/proto';
import { api, apiPath } from '../../app/api';

// The notifications area's endpoints; every call runs under the admin panel's session (the default realm).

const LIST = { type: 'Notification', id: 'LIST' } as const;
const COUNT = { type: 'Notification', id: 'COUNT' } as const;
const PREFS = { type: 'Notification', id: 'PREFS' } as const;

export type ListArgs = Partial<NotificationListQuery>;

function params(q: ListArgs): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (q.status) out.status = q.status;
  if (q.kind && q.kind !== 'all') out.kind = q.kind;
  if (q.page) out.page = q.page;
  if (q.page_size) out.page_size = q.page_size;
  return out;
}

export const notificationsApi = api.enhanceEndpoints({ addTagTypes: ['Notification'] }).injectEndpoints({
  endpoints: (build) => ({
    notificationsList: build.query<NotificationList, ListArgs>({
      query: (q) => ({ url: apiPath(NOTIFICATIONS_ROUTES.list), params: params(q) }),
      providesTags: [LIST],
    }),
    notificationsUnreadCount: build.query<UnreadCount, void>({
      query: () => ({ url: apiPath(NOTIFICATIONS_ROUTES.unreadCount) }),
      providesTags: [COUNT],
    }),
    markNotificationRead: build.mutation<MarkReadReply, string>({
      query: (id) => ({ url: apiPath(NOTIFICATIONS_ROUTES.markRead(id)), method: 'POST' }),
      invalidatesTags: [LIST, COUNT],
    }),
    markAllNotificationsRead: build.mutation<MarkReadReply, void>({
      query: () => ({ url: apiPath(NOTIFICATIONS_ROUTES.markAllRead), method: 'POST' }),
      invalidatesTags: [LIST, COUNT],
    }),
    notificationPreferences: build.query<NotificationPreferences, void>({
      query: () => ({ url: apiPath(NOTIFICATIONS_ROUTES.preferences) }),
      providesTags: [PREFS],
    }),
    saveNotificationPreferences: build.mutation<NotificationPreferences, NotificationPreferences>({
      query: (body) => ({ url: apiPath(NOTIFICATIONS_ROUTES.preferences), method: 'PUT', body }),
      invalidatesTags: [PREFS, LIST, COUNT],
    }),
  }),
});

export const {
  useNotificationsListQuery,
  useNotificationsUnreadCountQuery,
  useMarkNotificationReadMutation,
  useMarkAllNotificationsReadMutation,
  useNotificationPreferencesQuery,
  useSaveNotificationPreferencesMutation,
} = notificationsApi;
