import {
  ACCESS_COOKIE,
  AppError,
  enqueueEvent,
  requireRole,
  type App,
  type Db,
  type OutboxRelay,
  type TokenSigner,
} from '@countinghouse/kit';
import {
  AdminLoginBodySchema,
  AdminLoginReplySchema,
  AdminLogoutReplySchema,
  AdminVerifyReplySchema,
  MESSAGES,
  SESSION,
  type AdminUser,
  type Role,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findAdminByUsername, findLiveSession, findSessionByPreviousHash, findSessionByRefreshHash } from '../db/admin-queries.js';
import { adminSessions, adminUsers, SCHEMA } from '../db/schema.js';
import { addHours, hashToken, newOpaqueToken } from '../domain/tokens.js';
import { verifyPassword } from '../passwords.js';

export const ADMIN_REFRESH_COOKIE = 'ch_admin_rt';
const REFRESH_COOKIE_PATH = '/api/identity/admin';

export interface AdminAuthDeps {
  db: Db;
  signer: TokenSigner;
  relay: OutboxRelay;
  cookieSecure: boolean;
}

const ErrorRef = Type.Ref('ErrorBody');

export function adminAuthRoutes(app: App, deps: AdminAuthDeps) {
  const { db, signer, relay } = deps;
  const cookieBase = { httpOnly: true, sameSite: 'lax' as const, secure: deps.cookieSecure };

  async function issue(
    reply: FastifyReply,
    admin: { id: string; username: string; role: string },
    sessionId: string,
    refreshToken: string,
    sessionExpires: Date,
  ) {
    const role = admin.role as Role;
    const { token, expiresAt } = await signer.sign({ sub: admin.id, sid: sessionId, knd: 'admin', roles: [role], name: admin.username });
    reply.setCookie(ACCESS_COOKIE, token, { ...cookieBase, path: '/', expires: new Date(expiresAt * 1000) });
    reply.setCookie(ADMIN_REFRESH_COOKIE, refreshToken, { ...cookieBase, path: REFRESH_COOKIE_PATH, expires: sessionExpires });
    const user: AdminUser = { id: admin.id, username: admin.username, role };
    return { token, user };
  }

  function clearCookies(reply: FastifyReply) {
    reply.clearCookie(ACCESS_COOKIE, { ...cookieBase, path: '/' });
    reply.clearCookie(ADMIN_REFRESH_COOKIE, { ...cookieBase, path: REFRESH_COOKIE_PATH });
  }

  async function revokeSession(sessionId: string, adminId: string) {
    await db.transaction(async (tx) => {
      const res = await tx
        .update(adminSessions)
        .set({ revokedAt: sql`now()` })
        .where(sql`${adminSessions.id} = ${sessionId} and ${adminSessions.revokedAt} is null`)
        .returning({ id: adminSessions.id });
      if (res.length === 0) return;
      await enqueueEvent(
        tx,
        SCHEMA,
        'identity.session_revoked',
        { sessionId, subjectId: adminId, until: Math.floor(Date.now() / 1000) + SESSION.accessTokenSeconds + 60 },
        { actor: { kind: 'admin', id: adminId }, key: adminId },
      );
    });
    relay.kick();
  }

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
      const { username, password } = request.body as { username: string; password: string };
      const admin = await findAdminByUsername(db, username);
      const ok = await verifyPassword(admin?.isActive ? admin.passwordHash : null, password);
      if (!admin || !admin.isActive || !ok) {
        request.log.info({ username: username.slice(0, 100) }, 'admin sign-in refused');
        throw new AppError('INVALID_CREDENTIALS', MESSAGES.invalidCredentials);
      }
      const refreshToken = newOpaqueToken();
      const expiresAt = addHours(new Date(), SESSION.adminSessionHours);
      const sessionId = await db.transaction(async (tx) => {
        const [s] = await tx
          .insert(adminSessions)
          .values({
            adminId: admin.id,
            refreshHash: hashToken(refreshToken),
            expiresAt,
            ip: request.ip,
            userAgent: String(request.headers['user-agent'] ?? '').slice(0, 300),
          })
          .returning({ id: adminSessions.id });
        await tx
          .update(adminUsers)
          .set({ lastLoginAt: sql`now()` })
          .where(eq(adminUsers.id, admin.id));
        await enqueueEvent(
          tx,
          SCHEMA,
          'identity.admin_signed_in',
          { adminId: admin.id, username: admin.username, sessionId: s!.id, ip: request.ip ?? null },
          { actor: { kind: 'admin', id: admin.id }, key: admin.id },
        );
        return s!.id;
      });
      relay.kick();
      const { token, user } = await issue(reply, admin, sessionId, refreshToken, expiresAt);
      return { success: true, message: MESSAGES.loginSuccessful, user, session_token: token, expires_at: expiresAt.toISOString() };
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
      const live = await findLiveSession(db, request.principal!.sessionId);
      if (!live) throw new AppError('SESSION_EXPIRED', MESSAGES.adminSessionExpired);
      const { admin, session } = live;
      return {
        success: true,
        user: { id: admin.id, username: admin.username, role: admin.role as Role },
        expires_at: session.expiresAt.toISOString(),
      };
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
    async (request: FastifyRequest, reply) => {
      const presented = request.cookies[ADMIN_REFRESH_COOKIE];
      if (!presented) throw new AppError('UNAUTHENTICATED', MESSAGES.pleaseLogInAdmin);
      const presentedHash = hashToken(presented);
      const found = await findSessionByRefreshHash(db, presentedHash);
      if (!found) {
        // A rotated-out token presented again means it was copied: end that session for everyone.
        const reused = await findSessionByPreviousHash(db, presentedHash);
        if (reused) {
          request.log.warn({ sessionId: reused.id }, 'admin refresh token reuse: session revoked');
          await revokeSession(reused.id, reused.adminId);
        }
        clearCookies(reply);
        throw new AppError('SESSION_EXPIRED', MESSAGES.adminSessionExpired);
      }
      const { session, admin } = found;
      if (session.revokedAt || session.expiresAt <= new Date() || !admin.isActive) {
        clearCookies(reply);
        throw new AppError('SESSION_EXPIRED', MESSAGES.adminSessionExpired);
      }
      const next = newOpaqueToken();
      const updated = await db
        .update(adminSessions)
        .set({ refreshHash: hashToken(next), previousRefreshHash: presentedHash, lastUsedAt: sql`now()` })
        .where(sql`${adminSessions.id} = ${session.id} and ${adminSessions.refreshHash} = ${presentedHash}`)
        .returning({ id: adminSessions.id });
      if (updated.length === 0) throw new AppError('SESSION_EXPIRED', MESSAGES.adminSessionExpired); // lost a race with another refresh
      const { user } = await issue(reply, admin, session.id, next, session.expiresAt);
      return { success: true, user, expires_at: session.expiresAt.toISOString() };
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
      let target: { id: string; adminId: string } | null = null;
      if (request.principal?.kind === 'admin') target = { id: request.principal.sessionId, adminId: request.principal.id };
      else {
        const presented = request.cookies[ADMIN_REFRESH_COOKIE];
        const found = presented ? await findSessionByRefreshHash(db, hashToken(presented)) : null;
        if (found) target = { id: found.session.id, adminId: found.admin.id };
      }
      if (target) await revokeSession(target.id, target.adminId);
      clearCookies(reply);
      return { success: true, message: MESSAGES.loggedOut };
    },
  );
}
