import { AppError, enqueueEvent, pgErrorCode, requireRole, type App, type Db, type TokenSigner } from '@countinghouse/kit';
import {
  LIMITS,
  LoginBodySchema,
  LoginReplySchema,
  MeSchema,
  MessageReplySchema,
  MESSAGES,
  SignupBodySchema,
  type Me,
  type Role,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { activeRoles, findProfile, findUserByEmail, grantRole } from '../db/queries.js';
import { profiles, SCHEMA, users } from '../db/schema.js';
import type { SessionStore } from '../db/session-store.js';
import { bestStaffRole, displayName, hasStaffAccess, normaliseEmail } from '../domain/roles.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import { PEOPLE_COOKIES, sessionCookies } from './cookies.js';
import { endSession, rotatePresented, sessionOrigin, throttledSignIn } from './session-flow.js';

export interface PeopleAuthDeps {
  db: Db;
  signer: TokenSigner;
  sessions: SessionStore;
  cookieSecure: boolean;
}

const ErrorRef = Type.Ref('ErrorBody');

export function peopleAuthRoutes(app: App, deps: PeopleAuthDeps) {
  const { db, signer, sessions } = deps;
  const cookies = sessionCookies({ secure: deps.cookieSecure, ...PEOPLE_COOKIES });

  async function meOf(userId: string, sessionExpiresAt: Date): Promise<Me> {
    const profile = await findProfile(db, userId);
    if (!profile) throw new AppError('SESSION_EXPIRED', MESSAGES.userSessionExpired);
    const roles = await activeRoles(db, userId);
    return {
      user: {
        user_id: profile.userId,
        email: profile.email,
        first_name: profile.firstName,
        last_name: profile.lastName,
        company_name: profile.companyName,
        role: (profile.role || 'client') as Role,
        created_at: profile.createdAt.toISOString(),
      },
      roles,
      staff_role: bestStaffRole(roles),
      session_expires_at: sessionExpiresAt.toISOString(),
    };
  }

  const signFor = (me: Me, sessionId: string) =>
    signer.sign({
      sub: me.user.user_id,
      sid: sessionId,
      knd: 'user',
      roles: me.roles,
      name: displayName({ firstName: me.user.first_name, lastName: me.user.last_name, email: me.user.email }),
    });

  app.post(
    '/auth/signup',
    {
      schema: {
        tags: ['identity'],
        summary: 'Create a client account',
        body: SignupBodySchema,
        response: { 201: MessageReplySchema, 400: ErrorRef, 409: ErrorRef },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (body.password.length < LIMITS.minPasswordLength) throw new AppError('VALIDATION_FAILED', MESSAGES.passwordTooShort);
      const email = normaliseEmail(body.email);
      const passwordHash = await hashPassword(body.password);
      try {
        await db.transaction(async (tx) => {
          const [u] = await tx.insert(users).values({ email, passwordHash }).returning({ id: users.id });
          const userId = u!.id;
          await tx.insert(profiles).values({
            userId,
            email,
            firstName: body.first_name?.trim() || null,
            lastName: body.last_name?.trim() || null,
            companyName: body.company_name?.trim() || null,
            role: 'client',
          });
          await grantRole(tx, userId, 'client', null);
          await enqueueEvent(
            tx,
            SCHEMA,
            'identity.user_registered',
            {
              userId,
              email,
              firstName: body.first_name?.trim() || null,
              lastName: body.last_name?.trim() || null,
              companyName: body.company_name?.trim() || null,
            },
            { actor: { kind: 'user', id: userId }, key: userId },
          );
        });
      } catch (err) {
        if (pgErrorCode(err) === '23505') throw new AppError('CONFLICT', 'An account with this e-mail already exists. Please sign in.');
        throw err;
      }
      return reply.status(201).send({ success: true, message: MESSAGES.accountCreated });
    },
  );

  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['identity'],
        summary: 'Sign in with e-mail and password (staff and clients)',
        body: LoginBodySchema,
        response: { 200: LoginReplySchema, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 429: ErrorRef },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const key = normaliseEmail(body.email);
      // Throttled per e-mail (known or not, alike) and per address.
      const user = await throttledSignIn(
        request,
        reply,
        db,
        { scope: 'user', key },
        async () => {
          const found = await findUserByEmail(db, key);
          const ok = await verifyPassword(found?.passwordHash ?? null, body.password);
          return found && ok ? found : null;
        },
        () => new AppError('INVALID_CREDENTIALS', MESSAGES.invalidEmailOrPassword),
      );
      const roles = await activeRoles(db, user.id);
      if (body.portal === 'staff' && !hasStaffAccess(roles)) throw new AppError('FORBIDDEN', MESSAGES.noStaffAccess);
      const { session, refreshToken } = await db.transaction(async (tx) => {
        const created = await sessions.create(tx, user.id, sessionOrigin(request));
        await tx
          .update(users)
          .set({ lastLoginAt: sql`now()` })
          .where(eq(users.id, user.id));
        return created;
      });
      const me = await meOf(user.id, session.expiresAt);
      const access = await signFor(me, session.id);
      cookies.set(reply, access, { token: refreshToken, expiresAt: session.expiresAt });
      return {
        ...me,
        success: true,
        message: body.portal === 'staff' ? MESSAGES.welcomeBack : MESSAGES.loginSuccessful,
        access_token: access.token,
      };
    },
  );

  app.post(
    '/auth/refresh',
    {
      schema: {
        tags: ['identity'],
        summary: 'Rotate the refresh cookie; a new access token carries the current roles',
        response: { 200: MeSchema, 401: ErrorRef },
      },
    },
    async (request, reply) => {
      const r = await rotatePresented(request, cookies, sessions, {
        missing: MESSAGES.userSessionExpired,
        reuseLog: 'refresh token reuse: session revoked',
      });
      if (r.kind !== 'ok') {
        cookies.clear(reply);
        throw new AppError('SESSION_EXPIRED', MESSAGES.userSessionExpired);
      }
      const me = await meOf(r.session.ownerId, r.session.expiresAt);
      cookies.set(reply, await signFor(me, r.session.id), { token: r.refreshToken, expiresAt: r.session.expiresAt });
      return me;
    },
  );

  app.post(
    '/auth/logout',
    { schema: { tags: ['identity'], summary: 'Sign out (revokes the session at once)', response: { 200: MessageReplySchema } } },
    async (request: FastifyRequest, reply) => {
      await endSession(request, reply, 'user', cookies, sessions);
      return { success: true, message: MESSAGES.loggedOut };
    },
  );

  app.get(
    '/auth/me',
    {
      preHandler: requireRole([], { kind: 'user' }),
      schema: {
        tags: ['identity'],
        summary: 'The signed-in person: profile, active roles, staff role',
        response: { 200: MeSchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request) => {
      const session = await sessions.findLive(request.principal!.sessionId);
      if (!session) throw new AppError('SESSION_EXPIRED', MESSAGES.userSessionExpired);
      return meOf(session.ownerId, session.expiresAt);
    },
  );
}
