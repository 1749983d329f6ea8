// The notifications area's piece for the admin layout: the header's bell. The /admin/notifications page
// is loaded by the router from ./NotificationsPage (its own chunk).
export { NotificationBell } from './NotificationBell';
