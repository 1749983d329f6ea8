import { requireRole, type App, type TokenSigner } from '@countinghouse/kit';
import {
  ChangePasswordBodySchema,
  ForgotPasswordBodySchema,
  MessageReplySchema,
  MESSAGES,
  ResetLookupSchema,
  ResetPasswordBodySchema,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { activeRoles, findProfile } from '../db/queries.js';
import { displayName } from '../domain/roles.js';
import {
  changeAdminPassword,
  changePersonPassword,
  findPasswordReset,
  requestPasswordReset,
  resetPassword,
  type PasswordDeps,
} from '../use-cases/passwords.js';
import { ADMIN_COOKIES, PEOPLE_COOKIES, sessionCookies } from './cookies.js';
import { sessionOrigin } from './session-flow.js';

const ErrorRef = Type.Ref('ErrorBody');

/** Forgot / reset password for people (staff and clients); change password for people and admin panel accounts. */
export function passwordRoutes(app: App, deps: PasswordDeps & { signer: TokenSigner; cookieSecure: boolean }) {
  const { db, signer } = deps;
  const peopleCookies = sessionCookies({ secure: deps.cookieSecure, ...PEOPLE_COOKIES });
  const adminCookies = sessionCookies({ secure: deps.cookieSecure, ...ADMIN_COOKIES });

  app.post(
    '/auth/forgot-password',
    {
      schema: {
        tags: ['identity'],
        summary: 'E-mail a single-use password reset link (30 minutes); the same answer whether or not the e-mail has an account',
        body: ForgotPasswordBodySchema,
        response: { 200: MessageReplySchema, 400: ErrorRef, 429: ErrorRef },
      },
    },
    async (request) => {
      const body = request.body;
      await requestPasswordReset(deps, { email: body.email, ip: request.ip ?? null });
      return { success: true, message: MESSAGES.passwordResetRequested };
    },
  );

  app.get(
    '/auth/reset-password/lookup',
    {
      schema: {
        tags: ['identity'],
        summary: 'Check a password reset link before showing the form (public)',
        querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) }),
        response: { 200: ResetLookupSchema },
      },
    },
    async (request) => findPasswordReset(deps, request.query.token),
  );

  app.post(
    '/auth/reset-password',
    {
      schema: {
        tags: ['identity'],
        summary: 'Set a new password with a reset link: the link is spent and every session of the account ends',
        body: ResetPasswordBodySchema,
        response: { 200: MessageReplySchema, 400: ErrorRef, 410: ErrorRef, 429: ErrorRef },
      },
    },
    async (request) => {
      await resetPassword(deps, request.body);
      return { success: true, message: MESSAGES.passwordResetDone };
    },
  );

  app.post(
    '/auth/password',
    {
      preHandler: requireRole([], { kind: 'user' }),
      schema: {
        tags: ['identity'],
        summary: "Change the signed-in person's password (current one required); every other session ends",
        body: ChangePasswordBodySchema,
        response: { 200: MessageReplySchema, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 409: ErrorRef, 429: ErrorRef },
      },
    },
    async (request, reply) => {
      const p = request.principal!;
      const { session, refreshToken } = await changePersonPassword(deps, p, request.body, sessionOrigin(request));
      // This browser goes on in a fresh session; every earlier one (this one's old id included) is revoked.
      const [profile, roles] = await Promise.all([findProfile(db, p.id), activeRoles(db, p.id)]);
      const access = await signer.sign({
        sub: p.id,
        sid: session.id,
        knd: 'user',
        roles,
        name: profile ? displayName(profile) : p.name,
      });
      peopleCookies.set(reply, access, { token: refreshToken, expiresAt: session.expiresAt });
      return { success: true, message: MESSAGES.passwordChanged };
    },
  );

  app.post(
    '/admin/password',
    {
      preHandler: requireRole([], { kind: 'admin' }),
      schema: {
        tags: ['identity'],
        summary: "Change the signed-in admin panel account's password (current one required); every other session ends",
        body: ChangePasswordBodySchema,
        response: { 200: MessageReplySchema, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 409: ErrorRef, 429: ErrorRef },
      },
    },
    async (request, reply) => {
      const p = request.principal!;
      const { session, refreshToken, admin } = await changeAdminPassword(deps, p, request.body, sessionOrigin(request));
      const access = await signer.sign({ sub: admin.id, sid: session.id, knd: 'admin', roles: [admin.role], name: admin.username });
      adminCookies.set(reply, access, { token: refreshToken, expiresAt: session.expiresAt });
      return { success: true, message: MESSAGES.passwordChanged };
    },
  );
}
