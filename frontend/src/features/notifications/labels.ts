import { NOTIFICATION_KINDS, NOTIFICATIONS_POLL_SECONDS, type NotificationKind } from '@countinghouse/proto';

export const NOTIFICATIONS_PAGE = '/admin/notifications';
/** The bell asks every 30 seconds, like the sidebar's counts. */
export const NOTIFICATIONS_POLL_MS = NOTIFICATIONS_POLL_SECONDS * 1000;

export const KIND_LABEL = Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k.value, k.label])) as Record<NotificationKind, string>;

export const KIND_COLOUR: Record<NotificationKind, string> = {
  new_client: 'green',
  payment_failed: 'red',
  document_uploaded: 'blue',
  invitation_accepted: 'purple',
  integration_sync_failed: 'orange',
  job_failed: 'volcano',
  deadline_overdue: 'volcano',
  aml_review_due: 'gold',
  engagement_signed: 'cyan',
};

/** The badge's text: the number, '99+' above 99; nothing at 0. */
export function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}
