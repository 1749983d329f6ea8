import { AppError, requireAuth, requireRole, type App, type Db, type TokenSigner } from '@countinghouse/kit';
import {
  AdminLoginBodySchema,
  AdminLoginReplySchema,
  AdminLogoutReplySchema,
  AdminVerifyReplySchema,
  MESSAGES,
  type AdminUser,
  type Role,
  type SecondFactorUse,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type { SessionStore } from '../db/session-store.js';
import { ADMIN_FACTORS, recordSessionSecondFactor, sessionSecondFactor } from '../db/two-factor.js';
import type { SecretCipher } from '../domain/secret-cipher.js';
import { findActiveAdmin, findAdminByPassword, getAdminSession, startAdminSession } from '../use-cases/sign-in.js';
import { ADMIN_TWO_FACTOR, enrolmentRequired, TWO_FACTOR_MESSAGES } from '../use-cases/two-factor.js';
import { ADMIN_COOKIES, sessionCookies } from './cookies.js';
import { endSession, passSecondFactor, rotatePresented, sessionOrigin, throttledSignIn } from './session-flow.js';

export interface AdminAuthDeps {
  db: Db;
  cipher: SecretCipher;
  signer: TokenSigner;
  sessions: SessionStore;
  cookieSecure: boolean;
}

const ErrorRef = Type.Ref('ErrorBody');

export function adminAuthRoutes(app: App, deps: AdminAuthDeps) {
  const { db, signer, sessions } = deps;
  const cookies = sessionCookies({ secure: deps.cookieSecure, ...ADMIN_COOKIES });

  const toUser = (a: { id: string; username: string; role: Role }): AdminUser => ({
    id: a.id,
    username: a.username,
    role: a.role,
  });
  /** Whether the practice's rule holds this account to set up a second factor first (issue 32). */
  const mustEnrol = (a: { id: string; role: Role }) => enrolmentRequired(deps, a.id, [a.role], ADMIN_TWO_FACTOR);
  const signFor = (a: { id: string; username: string; role: Role }, sessionId: string, enr: boolean, mfa: SecondFactorUse | null) =>
    signer.sign({
      sub: a.id,
      sid: sessionId,
      knd: 'admin',
      roles: [a.role],
      name: a.username,
      enr,
      ...(mfa ? { mfa } : {}),
    });
  const enrolment = (required: boolean) => (required ? { two_factor_enrolment_required: true } : {});

  app.post(
    '/admin/login',
    {
      schema: {
        tags: ['identity'],
        summary:
          'Administrator sign-in (admin-auth: login); with two-factor sign-in on, totp_code or recovery_code too (401 asking for it when missing)',
        body: AdminLoginBodySchema,
        response: { 200: AdminLoginReplySchema, 400: ErrorRef, 401: ErrorRef, 429: ErrorRef },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      // Throttled per account key (the lower-cased username, known or not) and per address; a wrong
      // or replayed second factor counts as a failed sign-in too (issue 32).
      let secondFactorWrong = false;
      const admin = await throttledSignIn(
        request,
        reply,
        db,
        { scope: 'admin', key: username.trim().toLowerCase() },
        async () => {
          const found = await findAdminByPassword(deps, { username, password });
          if (!found) return null;
          const second = await passSecondFactor(deps, found, request.body, ADMIN_TWO_FACTOR);
          secondFactorWrong = second === null;
          return second;
        },
        () => {
          request.log.info({ username: username.slice(0, 100), secondFactorWrong }, 'admin sign-in refused');
          return new AppError('INVALID_CREDENTIALS', secondFactorWrong ? TWO_FACTOR_MESSAGES.codeWrong : MESSAGES.invalidCredentials);
        },
      );
      const { session, refreshToken } = await startAdminSession(deps, admin, sessionOrigin(request));
      if (admin.secondFactor) await recordSessionSecondFactor(db, ADMIN_FACTORS, session.id, admin.secondFactor);
      const required = await mustEnrol(admin);
      const access = await signFor(admin, session.id, required, admin.secondFactor);
      cookies.set(reply, access, { token: refreshToken, expiresAt: session.expiresAt });
      return {
        success: true,
        message: MESSAGES.loginSuccessful,
        user: toUser(admin),
        session_token: access.token,
        expires_at: session.expiresAt.toISOString(),
        ...enrolment(required),
      };
    },
  );

  app.get(
    '/admin/session',
    {
      // Open while the account must set up two-factor sign-in: the admin panel reads the rule here.
      preHandler: requireRole([], { kind: 'admin', duringEnrolment: true }),
      schema: {
        tags: ['identity'],
        summary: 'Verify the administrator session (admin-auth: verify)',
        response: { 200: AdminVerifyReplySchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request) => {
      const { session, admin } = await getAdminSession(deps, requireAuth(request));
      return { success: true, user: toUser(admin), expires_at: session.expiresAt.toISOString(), ...enrolment(await mustEnrol(admin)) };
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
      // The rule is read again: a refresh after setting up the second factor lifts the restriction.
      const required = await mustEnrol(admin);
      const access = await signFor(admin, r.session.id, required, await sessionSecondFactor(db, ADMIN_FACTORS, r.session.id));
      cookies.set(reply, access, { token: r.refreshToken, expiresAt: r.session.expiresAt });
      return { success: true, user: toUser(admin), expires_at: r.session.expiresAt.toISOString(), ...enrolment(required) };
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
