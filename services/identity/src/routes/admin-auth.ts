import { AppError, requireAuth, requireRole, type App, type Db, type TokenSigner } from '@countinghouse/kit';
import {
  AdminLoginBodySchema,
  AdminLoginReplySchema,
  AdminLogoutReplySchema,
  AdminVerifyReplySchema,
  MESSAGES,
  type AdminUser,
  type Role,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type { SessionStore } from '../db/session-store.js';
import { findActiveAdmin, findAdminByPassword, getAdminSession, startAdminSession } from '../use-cases/sign-in.js';
import { ADMIN_COOKIES, sessionCookies } from './cookies.js';
import { endSession, rotatePresented, sessionOrigin, throttledSignIn } from './session-flow.js';

export interface AdminAuthDeps {
  db: Db;
  signer: TokenSigner;
  sessions: SessionStore;
  cookieSecure: boolean;
}

const ErrorRef = Type.Ref('ErrorBody');

export function adminAuthRoutes(app: App, deps: AdminAuthDeps) {
  const { db, signer, sessions } = deps;
  const cookies = sessionCookies({ secure: deps.cookieSecure, ...ADMIN_COOKIES });

  const toUser = (a: { id: string; username: string; role: string }): AdminUser => ({
    id: a.id,
    username: a.username,
    role: a.role as Role,
  });
  const signFor = (a: { id: string; username: string; role: string }, sessionId: string) =>
    signer.sign({ sub: a.id, sid: sessionId, knd: 'admin', roles: [a.role as Role], name: a.username });

  app.post(
    '/admin/login',
    {
      schema: {
        tags: ['identity'],
        summary: 'Administrator sign-in (admin-auth: login)',
        body: AdminLoginBodySchema,
        response: { 200: AdminLoginReplySchema, 400: ErrorRef, 401: ErrorRef, 429: ErrorRef },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      // Throttled per account key (the lower-cased username, known or not) and per address.
      const admin = await throttledSignIn(
        request,
        reply,
        db,
        { scope: 'admin', key: username.trim().toLowerCase() },
        () => findAdminByPassword(deps, { username, password }),
        () => {
          request.log.info({ username: username.slice(0, 100) }, 'admin sign-in refused');
          return new AppError('INVALID_CREDENTIALS', MESSAGES.invalidCredentials);
        },
      );
      const { session, refreshToken } = await startAdminSession(deps, admin, sessionOrigin(request));
      const access = await signFor(admin, session.id);
      cookies.set(reply, access, { token: refreshToken, expiresAt: session.expiresAt });
      return {
        success: true,
        message: MESSAGES.loginSuccessful,
        user: toUser(admin),
        session_token: access.token,
        expires_at: session.expiresAt.toISOString(),
      };
    },
  );

  app.get(
    '/admin/session',
    {
      preHandler: requireRole([], { kind: 'admin' }),
      schema: {
        tags: ['identity'],
        summary: 'Verify the administrator session (admin-auth: verify)',
        response: { 200: AdminVerifyReplySchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request) => {
      const { session, admin } = await getAdminSession(deps, requireAuth(request));
      return { success: true, user: toUser(admin), expires_at: session.expiresAt.toISOString() };
    },
  );

  app.post(
    '/admin/refresh',
    {
      schema: {
        tags: ['identity'],
        summary: 'Rotate the refresh cookie and issue a new access token',
        response: { 200: AdminVerifyReplySchema, 401: ErrorRef },
      },
    },
    async (request, reply) => {
      const r = await rotatePresented(request, cookies, sessions, {
        missing: MESSAGES.pleaseLogInAdmin,
        reuseLog: 'admin refresh token reuse: session revoked',
      });
      const admin = r.kind === 'ok' ? await findActiveAdmin(deps, r.session.ownerId) : null;
      if (r.kind !== 'ok' || !admin) {
        cookies.clear(reply);
        throw new AppError('SESSION_EXPIRED', MESSAGES.adminSessionExpired);
      }
      const access = await signFor(admin, r.session.id);
      cookies.set(reply, access, { token: r.refreshToken, expiresAt: r.session.expiresAt });
      return { success: true, user: toUser(admin), expires_at: r.session.expiresAt.toISOString() };
    },
  );

  app.post(
    '/admin/logout',
    {
      schema: {
        tags: ['identity'],
        summary: 'End the administrator session (admin-auth: logout)',
        response: { 200: AdminLogoutReplySchema },
      },
    },
    async (request, reply) => {
      // Logout works with either credential, and always clears the cookies.
      await endSession(request, reply, 'admin', cookies, sessions);
      return { success: true, message: MESSAGES.loggedOut };
    },
  );
}
