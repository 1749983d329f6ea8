import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  AcceptInviteBodySchema,
  InvitationListQuerySchema,
  InvitationListSchema,
  InvitationLookupSchema,
  InvitationSchema,
  InvitationWithLinkSchema,
  InviteBodySchema,
  MessageReplySchema,
  rolesFor,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import {
  acceptInvitation,
  cancelStaffInvitation,
  findInvitations,
  inviteStaff,
  lookUpInvitation,
  resendInvitation,
  type InvitationDeps,
} from '../use-cases/invitations.js';

export type { InvitationDeps } from '../use-cases/invitations.js';

const ErrorRef = Type.Ref('ErrorBody');
const manage = requireRole(rolesFor('staff.manage'));
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export function invitationRoutes(app: App, deps: InvitationDeps) {
  app.post(
    '/invitations',
    {
      preHandler: manage,
      schema: {
        tags: ['identity'],
        summary: 'Invite a staff member by e-mail and role',
        body: InviteBodySchema,
        response: { 201: InvitationWithLinkSchema, 400: ErrorRef, 403: ErrorRef, 409: ErrorRef },
      },
    },
    async (request, reply) => reply.status(201).send(await inviteStaff(deps, requireAuth(request), request.body)),
  );

  app.get(
    '/invitations',
    {
      preHandler: manage,
      schema: {
        tags: ['identity'],
        summary: 'Invitations to the roles the caller may invite to, newest first (never their links)',
        querystring: InvitationListQuerySchema,
        response: { 200: InvitationListSchema, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request) => findInvitations(deps, requireAuth(request), request.query),
  );

  app.post(
    '/invitations/:id/resend',
    {
      preHandler: manage,
      schema: {
        tags: ['identity'],
        summary: 'Re-send a pending (or expired) invitation: a fresh link for another full term; the old link stops working',
        params: IdParams,
        response: { 200: InvitationWithLinkSchema, 403: ErrorRef, 404: ErrorRef, 409: ErrorRef },
      },
    },
    async (request) => resendInvitation(deps, requireAuth(request), request.params),
  );

  app.post(
    '/invitations/:id/cancel',
    {
      preHandler: manage,
      schema: {
        tags: ['identity'],
        summary: 'Cancel a pending invitation',
        params: IdParams,
        response: { 200: InvitationSchema, 403: ErrorRef, 404: ErrorRef, 409: ErrorRef },
      },
    },
    async (request) => cancelStaffInvitation(deps, requireAuth(request), request.params),
  );

  app.get(
    '/invitations/lookup',
    {
      schema: {
        tags: ['identity'],
        summary: 'Check an invitation link (public: the staff sign-up page)',
        querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) }),
        response: { 200: InvitationLookupSchema },
      },
    },
    async (request) => lookUpInvitation(deps, request.query),
  );

  app.post(
    '/invitations/accept',
    {
      schema: {
        tags: ['identity'],
        summary: 'Accept an invitation (accept-staff-invite): creates the account or adds the role to an existing one',
        body: AcceptInviteBodySchema,
        response: { 200: MessageReplySchema, 400: ErrorRef, 401: ErrorRef, 410: ErrorRef },
      },
    },
    async (request) => acceptInvitation(deps, request.body),
  );
}
