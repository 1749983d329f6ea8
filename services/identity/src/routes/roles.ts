import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  AdminAccountParamsSchema,
  GrantRoleBodySchema,
  MessageReplySchema,
  MESSAGES,
  PersonGrantParamsSchema,
  RoleListSchema,
  rolesFor,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { deactivateAdminAccount, findRoles, grantPersonRole, revokePersonRole, type RoleDeps } from '../use-cases/roles.js';

const ErrorRef = Type.Ref('ErrorBody');
const errors = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, 409: ErrorRef };
const guard = requireRole(rolesFor('roles'));

/** /admin/roles: the five roles, what each may do (the permissions table), who holds them; grant and revoke. */
export function roleRoutes(app: App, deps: RoleDeps) {
  app.get(
    '/roles',
    {
      preHandler: guard,
      schema: {
        tags: ['identity'],
        summary: 'Each role: its description, its permissions and the people (and admin panel accounts) holding it',
        response: { 200: RoleListSchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request) => findRoles(deps, requireAuth(request)),
  );

  app.post(
    '/roles/grants',
    {
      preHandler: guard,
      schema: {
        tags: ['identity'],
        summary: 'Grant a role to a registered person (by user id or e-mail); 409 if they already hold it',
        body: GrantRoleBodySchema,
        response: { 201: MessageReplySchema, ...errors },
      },
    },
    async (request, reply) => {
      await grantPersonRole(deps, requireAuth(request), request.body);
      return reply.status(201).send({ success: true, message: MESSAGES.roleGranted });
    },
  );

  app.delete(
    '/roles/:role/people/:userId',
    {
      preHandler: guard,
      schema: {
        tags: ['identity'],
        summary: "Revoke a person's role; they are signed out everywhere at once and sign in again with what is left",
        params: PersonGrantParamsSchema,
        response: { 200: MessageReplySchema, ...errors },
      },
    },
    async (request) => {
      await revokePersonRole(deps, requireAuth(request), request.params);
      return { success: true, message: MESSAGES.roleRevoked };
    },
  );

  app.delete(
    '/roles/admin-accounts/:adminId',
    {
      preHandler: guard,
      schema: {
        tags: ['identity'],
        summary: 'Deactivate an admin panel account (refused for the last active administrator); its sessions end at once',
        params: AdminAccountParamsSchema,
        response: { 200: MessageReplySchema, ...errors },
      },
    },
    async (request) => {
      await deactivateAdminAccount(deps, requireAuth(request), request.params);
      return { success: true, message: MESSAGES.adminAccountDeactivated };
    },
  );
}
