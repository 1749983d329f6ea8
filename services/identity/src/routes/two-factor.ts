import { requireAuth, requireRole, type App, type Db } from '@countinghouse/kit';
import { MessageReplySchema, rolesFor } from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { confirmTotpEnrolment, getTwoFactor, resetSecondFactor, startTotpEnrolment } from '../use-cases/two-factor.js';

const ErrorRef = Type.Ref('ErrorBody');
const E = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 409: ErrorRef };

/** Two-factor sign-in (issue 32): enrolment for any signed-in person, the administrators' reset. */
export function twoFactorRoutes(app: App, deps: { db: Db; issuer: () => string }) {
  const signedIn = requireRole(rolesFor('two_factor.own'));

  app.get(
    '/auth/two-factor',
    {
      preHandler: signedIn,
      schema: {
        tags: ['identity'],
        summary: 'Whether two-factor sign-in is on, and how many recovery codes are left',
        response: { 200: Type.Object({ totp_enabled: Type.Boolean(), recovery_codes_left: Type.Integer() }), ...E },
      },
    },
    async (request) => getTwoFactor(deps, requireAuth(request)),
  );

  app.post(
    '/auth/two-factor/totp',
    {
      preHandler: signedIn,
      schema: {
        tags: ['identity'],
        summary: 'Start setting up an authenticator app: the secret and its otpauth:// URI, shown once',
        response: { 200: Type.Object({ secret: Type.String(), otpauth_uri: Type.String() }), ...E },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return startTotpEnrolment(deps, requireAuth(request));
    },
  );

  app.post(
    '/auth/two-factor/totp/confirm',
    {
      preHandler: signedIn,
      schema: {
        tags: ['identity'],
        summary: 'Confirm the authenticator app with a code: two-factor sign-in is on; ten recovery codes, shown once',
        body: Type.Object({ code: Type.String({ minLength: 1, maxLength: 12 }) }, { additionalProperties: false }),
        response: { 200: Type.Object({ recovery_codes: Type.Array(Type.String()) }), ...E },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return confirmTotpEnrolment(deps, requireAuth(request), request.body);
    },
  );

  app.delete(
    '/users/:userId/two-factor',
    {
      preHandler: requireRole(rolesFor('roles')),
      schema: {
        tags: ['identity'],
        summary: "Turn a person's second factor off (administrators; recorded as identity.second_factor_reset)",
        params: Type.Object({ userId: Type.String({ format: 'uuid' }) }),
        response: { 200: MessageReplySchema, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef },
      },
    },
    async (request) => {
      await resetSecondFactor(deps, requireAuth(request), request.params);
      return { success: true, message: 'Two-factor sign-in turned off for this person.' };
    },
  );
}
