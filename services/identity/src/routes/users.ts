import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import { OutgoingMailListSchema, rolesFor, UserListQuerySchema, UserListSchema } from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { findOutgoingMail, findUsers, type UserDeps } from '../use-cases/users.js';

const ErrorRef = Type.Ref('ErrorBody');
// The user list holds personal data: administrators only (the spec leaves the page public).
const adminsOnly = requireRole(rolesFor('users.view'));

export function userRoutes(app: App, deps: UserDeps) {
  app.get(
    '/users',
    {
      preHandler: adminsOnly,
      schema: {
        tags: ['identity'],
        summary: 'Registered people with their role and status',
        querystring: UserListQuerySchema,
        response: { 200: UserListSchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request) => findUsers(deps, requireAuth(request), request.query),
  );

  app.get(
    '/outgoing-mail',
    {
      preHandler: adminsOnly,
      schema: {
        tags: ['identity'],
        summary: 'E-mail the practice sent or, without SMTP, kept in the log',
        response: { 200: OutgoingMailListSchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request) => findOutgoingMail(deps, requireAuth(request)),
  );
}
