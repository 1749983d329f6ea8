import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import { MessageReplySchema, MESSAGES, rolesFor, StaffListSchema, StillReachableSchema } from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { deactivateStaff, findStaff, getStillReachable, type StaffDeps } from '../use-cases/staff.js';

const ErrorRef = Type.Ref('ErrorBody');

export function staffRoutes(app: App, deps: StaffDeps) {
  app.get(
    '/staff',
    {
      preHandler: requireRole(rolesFor('staff.manage')),
      schema: { tags: ['identity'], summary: 'Active staff members', response: { 200: StaffListSchema, 401: ErrorRef, 403: ErrorRef } },
    },
    async (request) => findStaff(deps, requireAuth(request)),
  );

  app.post(
    '/staff/:userId/deactivate',
    {
      preHandler: requireRole(rolesFor('staff.manage')),
      schema: {
        tags: ['identity'],
        summary: 'Deactivate a staff member: their staff roles end and their open sessions lose access at once',
        params: Type.Object({ userId: Type.String({ format: 'uuid' }) }),
        response: { 200: MessageReplySchema, 403: ErrorRef, 404: ErrorRef },
      },
    },
    async (request) => {
      await deactivateStaff(deps, requireAuth(request), request.params);
      return { success: true, message: MESSAGES.staffDeactivated };
    },
  );

  app.get(
    '/staff/:userId/access',
    {
      preHandler: requireRole(rolesFor('staff.manage')),
      schema: {
        tags: ['identity'],
        summary:
          'What this person can still reach: roles, sessions, invitations sent, reset links, calendar feeds (empty after deactivation)',
        params: Type.Object({ userId: Type.String({ format: 'uuid' }) }),
        response: { 200: StillReachableSchema, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return getStillReachable(deps, requireAuth(request), request.params);
    },
  );
}
