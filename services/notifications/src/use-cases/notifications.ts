import { AppError, type Db, type Principal } from '@countinghouse/kit';
import type { MarkReadReply, NotificationList, NotificationListQuery, NotificationPreferences, UnreadCount } from '@countinghouse/proto';
import { listNotifications, markAllRead, markRead, preferencesOf, savePreferences, unreadCount, type Recipient } from '../db/queries.js';

export interface NotificationsDeps {
  db: Db;
}

/** Read state and preferences are per administrator: an admin panel account or a person with an admin grant. */
const recipientOf = (p: Principal): Recipient => ({ kind: p.kind, id: p.id });

export async function findNotifications(
  deps: NotificationsDeps,
  principal: Principal,
  query: NotificationListQuery,
): Promise<NotificationList> {
  const { notifications, total, totalExact } = await listNotifications(deps.db, recipientOf(principal), query);
  return { notifications, total, total_exact: totalExact, page: query.page, page_size: query.page_size };
}

export async function countUnread(deps: NotificationsDeps, principal: Principal): Promise<UnreadCount> {
  return unreadCount(deps.db, recipientOf(principal));
}

export async function markAllNotificationsRead(deps: NotificationsDeps, principal: Principal): Promise<MarkReadReply> {
  const r = recipientOf(principal);
  await markAllRead(deps.db, r);
  return { success: true, unread: await unreadCount(deps.db, r) };
}

export async function markNotificationRead(deps: NotificationsDeps, principal: Principal, id: string): Promise<MarkReadReply> {
  const r = recipientOf(principal);
  if (!(await markRead(deps.db, r, id))) throw new AppError('NOT_FOUND', 'Notification not found');
  return { success: true, unread: await unreadCount(deps.db, r) };
}

export async function getPreferences(deps: NotificationsDeps, principal: Principal): Promise<NotificationPreferences> {
  return preferencesOf(deps.db, recipientOf(principal));
}

export async function changePreferences(
  deps: NotificationsDeps,
  principal: Principal,
  input: NotificationPreferences,
): Promise<NotificationPreferences> {
  return savePreferences(deps.db, recipientOf(principal), input);
}
