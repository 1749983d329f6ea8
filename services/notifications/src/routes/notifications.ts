import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  MarkReadReplySchema,
  NotificationListQuerySchema,
  NotificationListSchema,
  NotificationPreferencesSchema,
  rolesFor,
  UnreadCountSchema,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import {
  changePreferences,
  countUnread,
  findNotifications,
  getPreferences,
  markAllNotificationsRead,
  markNotificationRead,
  type NotificationsDeps,
} from '../use-cases/notifications.js';

const ErrorRef = Type.Ref('ErrorBody');
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
const refusals = { 401: ErrorRef, 403: ErrorRef };

/**
 * Administrators only: admin panel accounts and people holding an active admin grant (the token's
 * roles; a withdrawn grant cuts the token short).
 */
const adminsOnly = requireRole(rolesFor('notifications'));

export function notificationRoutes(app: App, deps: NotificationsDeps) {
  app.get(
    '/',
    {
      preHandler: adminsOnly,
      schema: {
        tags: ['notifications'],
        summary: 'Notifications of the kinds the caller receives, newest first, unread or all, one page',
        querystring: NotificationListQuerySchema,
        response: { 200: NotificationListSchema, 400: ErrorRef, ...refusals },
      },
    },
    async (request) => findNotifications(deps, requireAuth(request), request.query),
  );

  app.get(
    '/unread-count',
    {
      preHandler: adminsOnly,
      schema: {
        tags: ['notifications'],
        summary: 'How many are unread (the bell polls it); counted up to a cap',
        response: { 200: UnreadCountSchema, ...refusals },
      },
    },
    async (request) => countUnread(deps, requireAuth(request)),
  );

  app.post(
    '/read-all',
    {
      preHandler: adminsOnly,
      schema: {
        tags: ['notifications'],
        summary: 'Mark every notification read for the caller',
        response: { 200: MarkReadReplySchema, ...refusals },
      },
    },
    async (request) => markAllNotificationsRead(deps, requireAuth(request)),
  );

  app.post(
    '/:id/read',
    {
      preHandler: adminsOnly,
      schema: {
        tags: ['notifications'],
        summary: 'Mark one notification read for the caller',
        params: IdParams,
        response: { 200: MarkReadReplySchema, 404: ErrorRef, ...refusals },
      },
    },
    async (request) => markNotificationRead(deps, requireAuth(request), request.params.id),
  );

  app.get(
    '/preferences',
    {
      preHandler: adminsOnly,
      schema: {
        tags: ['notifications'],
        summary: 'Which kinds the caller receives (all until they turn some off)',
        response: { 200: NotificationPreferencesSchema, ...refusals },
      },
    },
    async (request) => getPreferences(deps, requireAuth(request)),
  );

  app.put(
    '/preferences',
    {
      preHandler: adminsOnly,
      schema: {
        tags: ['notifications'],
        summary: 'Choose which kinds the caller receives',
        body: NotificationPreferencesSchema,
        response: { 200: NotificationPreferencesSchema, 400: ErrorRef, ...refusals },
      },
    },
    async (request) => changePreferences(deps, requireAuth(request), request.body),
  );
}
