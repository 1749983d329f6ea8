import { AppError, requireAuth, requireRole, type App, type Db, type TokenSigner } from '@countinghouse/kit';
import {
  LoginBodySchema,
  LoginReplySchema,
  MeSchema,
  MessageReplySchema,
  MESSAGES,
  SignupBodySchema,
  type Me,
  type SecondFactorUse,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PERSON_FACTORS, recordSessionSecondFactor, sessionSecondFactor } from '../db/two-factor.js';
import type { SessionStore } from '../db/session-store.js';
import type { SecretCipher } from '../domain/secret-cipher.js';
import { displayName, normaliseEmail } from '../domain/roles.js';
import { findPersonByPassword, getMe, getPersonSession, signUp, startPersonSession } from '../use-cases/sign-in.js';
import { PEOPLE_TWO_FACTOR, TWO_FACTOR_MESSAGES } from '../use-cases/two-factor.js';
import { PASSKEY_MESSAGES, passkeySignInOptions, verifyPasskeySignIn, type RelyingParty } from '../use-cases/passkeys.js';
import { PEOPLE_COOKIES, sessionCookies } from './cookies.js';
import { endSession, passSecondFactor, rotatePresented, sessionOrigin, throttledSignIn } from './session-flow.js';

export interface PeopleAuthDeps {
  db: Db;
  cipher: SecretCipher;
  rp: () => RelyingParty;
  signer: TokenSigner;
  sessions: SessionStore;
  cookieSecure: boolean;
}

const ErrorRef = Type.Ref('ErrorBody');

export function peopleAuthRoutes(app: App, deps: PeopleAuthDeps) {
  const { db, signer, sessions } = deps;
  const cookies = sessionCookies({ secure: deps.cookieSecure, ...PEOPLE_COOKIES });

  const signFor = (me: Me, sessionId: string, mfa?: SecondFactorUse | null) =>
    signer.sign({
      sub: me.user.user_id,
      sid: sessionId,
      knd: 'user',
      roles: me.roles,
      name: displayName({ firstName: me.user.first_name, lastName: me.user.last_name, email: me.user.email }),
      enr: me.two_factor_enrolment_required === true,
      ...(mfa ? { mfa } : {}),
    });

  /** A session for a person who proved who they are, with the second factor they used kept beside it. */
  const open = async (
    request: FastifyRequest,
    reply: FastifyReply,
    user: { id: string },
    portal: string | undefined,
    mfa: SecondFactorUse | null,
  ) => {
    const { session, refreshToken, me } = await startPersonSession(deps, user, { portal, origin: sessionOrigin(request) });
    if (mfa) await recordSessionSecondFactor(db, PERSON_FACTORS, session.id, mfa);
    const access = await signFor(me, session.id, mfa);
    cookies.set(reply, access, { token: refreshToken, expiresAt: session.expiresAt });
    return {
      ...me,
      success: true,
      message: portal === 'staff' ? MESSAGES.welcomeBack : MESSAGES.loginSuccessful,
      access_token: access.token,
    };
  };

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
      await signUp(deps, request.body);
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
      // Throttled per e-mail (known or not, alike) and per address; a wrong second factor counts too.
      let secondFactorWrong = false;
      const user = await throttledSignIn(
        request,
        reply,
        db,
        { scope: 'user', key },
        async () => {
          const found = await findPersonByPassword(deps, { key, password: body.password });
          if (!found) return null;
          const second = await passSecondFactor(deps, found, body, PEOPLE_TWO_FACTOR);
          secondFactorWrong = second === null;
          return second;
        },
        () =>
          secondFactorWrong
            ? new AppError('INVALID_CREDENTIALS', TWO_FACTOR_MESSAGES.codeWrong)
            : new AppError('INVALID_CREDENTIALS', MESSAGES.invalidEmailOrPassword),
      );
      return open(request, reply, user, body.portal, user.secondFactor);
    },
  );

  // Passkey sign-in (issue 32): a challenge, then the device's signed answer; no password.
  app.post(
    '/auth/passkeys/sign-in/options',
    {
      schema: {
        tags: ['identity'],
        summary: 'A WebAuthn challenge for signing in with a passkey',
        response: { 200: Type.Object({ challenge_id: Type.String(), options: Type.Object({}, { additionalProperties: true }) }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return passkeySignInOptions(deps);
    },
  );

  app.post(
    '/auth/passkeys/sign-in',
    {
      schema: {
        tags: ['identity'],
        summary: 'Sign in with a passkey (staff and clients): the signed WebAuthn answer',
        body: Type.Object(
          {
            challenge_id: Type.String({ format: 'uuid' }),
            response: Type.Object({ id: Type.String({ minLength: 1, maxLength: 1400 }) }, { additionalProperties: true }),
            portal: Type.Optional(Type.Union([Type.Literal('staff'), Type.Literal('client')])),
          },
          { additionalProperties: false },
        ),
        response: { 200: LoginReplySchema, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 429: ErrorRef },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const user = await throttledSignIn(
        request,
        reply,
        db,
        { scope: 'user', key: `passkey:${body.response.id.slice(0, 200)}` },
        () => verifyPasskeySignIn(deps, body),
        () => new AppError('INVALID_CREDENTIALS', PASSKEY_MESSAGES.failed),
      );
      return open(request, reply, user, body.portal, user.secondFactor);
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
      const me = await getMe(deps, r.session.ownerId, r.session.expiresAt);
      const mfa = await sessionSecondFactor(db, PERSON_FACTORS, r.session.id);
      cookies.set(reply, await signFor(me, r.session.id, mfa), { token: r.refreshToken, expiresAt: r.session.expiresAt });
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
      preHandler: requireRole([], { kind: 'user', duringEnrolment: true }),
      schema: {
        tags: ['identity'],
        summary: 'The signed-in person: profile, active roles, staff role',
        response: { 200: MeSchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request) => {
      return getPersonSession(deps, requireAuth(request));
    },
  );
}
