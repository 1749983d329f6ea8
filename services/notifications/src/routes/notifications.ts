import { AppError, requireAuth, requireRole, type App, type Db, type Principal } from '@countinghouse/kit';
import {
  MarkReadReplySchema,
  NotificationListQuerySchema,
  NotificationListSchema,
  NotificationPreferencesSchema,
  rolesFor,
  UnreadCountSchema,
  type NotificationListQuery,
  type NotificationPreferences,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { listNotifications, markAllRead, markRead, preferencesOf, savePreferences, unreadCount, type Recipient } from '../db/queries.js';

const ErrorRef = Type.Ref('ErrorBody');
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
const refusals = { 401: ErrorRef, 403: ErrorRef };

/**
 * Administrators only: admin panel accounts and people holding an active admin grant (the token's
 * roles; a withdrawn grant cuts the token short).
 */
const adminsOnly = requireRole(rolesFor('notifications'));

const recipientOf = (p: Principal): Recipient => ({ kind: p.kind, id: p.id });

export function notificationRoutes(app: App, deps: { db: Db }) {
  const { db } = deps;

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
    async (request) => {
      const q = request.query;
      const { notifications, total, totalExact } = await listNotifications(db, recipientOf(requireAuth(request)), q);
      return { notifications, total, total_exact: totalExact, page: q.page, page_size: q.page_size };
    },
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
    async (request) => unreadCount(db, recipientOf(requireAuth(request))),
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
    async (request) => {
      const r = recipientOf(requireAuth(request));
      await markAllRead(db, r);
      return { success: true, unread: await unreadCount(db, r) };
    },
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
    async (request) => {
      const r = recipientOf(requireAuth(request));
      if (!(await markRead(db, r, request.params.id))) throw new AppError('NOT_FOUND', 'Notification not found');
      return { success: true, unread: await unreadCount(db, r) };
    },
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
    async (request) => preferencesOf(db, recipientOf(requireAuth(request))),
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
    async (request) => savePreferences(db, recipientOf(requireAuth(request)), request.body),
  );
}
