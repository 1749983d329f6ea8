import { requireAuth, requireRole, type App, type Db } from '@countinghouse/kit';
import { MessageReplySchema, rolesFor, SafeString } from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type { SecretCipher } from '../domain/secret-cipher.js';
import { listPasskeys, passkeyRegistrationOptions, registerPasskey, removePasskey, type RelyingParty } from '../use-cases/passkeys.js';
import {
  confirmTotpEnrolment,
  disableOwnTwoFactor,
  getTwoFactor,
  getTwoFactorPolicy,
  setTwoFactorPolicy,
  regenerateRecoveryCodes,
  resetAdminSecondFactor,
  resetSecondFactor,
  startTotpEnrolment,
} from '../use-cases/two-factor.js';

const ErrorRef = Type.Ref('ErrorBody');
const E = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 409: ErrorRef };

/** Two-factor sign-in (issue 32): enrolment for any signed-in person, the administrators' reset. */
export function twoFactorRoutes(app: App, deps: { db: Db; cipher: SecretCipher; issuer: () => string; rp: () => RelyingParty }) {
  const signedIn = requireRole(rolesFor('two_factor.own'), { duringEnrolment: true });

  // The authenticator app: the same five routes for people (/auth/two-factor) and for the admin
  // panel's own accounts (/admin/two-factor, admin panel sessions only); the use cases pick the owner.
  ownTotpRoutes(app, deps, '/auth/two-factor', signedIn, 'one’s');
  ownTotpRoutes(
    app,
    deps,
    '/admin/two-factor',
    requireRole(rolesFor('two_factor.own'), { kind: 'admin', duringEnrolment: true }),
    'the admin panel account’s',
  );

  const PasskeyListSchema = Type.Object({
    passkeys: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        created_at: Type.String({ format: 'date-time' }),
        last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      }),
    ),
  });

  app.get(
    '/auth/passkeys',
    {
      preHandler: signedIn,
      schema: { tags: ['identity'], summary: 'The signed-in person’s passkeys', response: { 200: PasskeyListSchema, ...E } },
    },
    async (request) => listPasskeys(deps, requireAuth(request)),
  );

  app.post(
    '/auth/passkeys/register/options',
    {
      preHandler: signedIn,
      schema: {
        tags: ['identity'],
        summary: 'A WebAuthn challenge for adding a passkey',
        response: { 200: Type.Object({ challenge_id: Type.String(), options: Type.Object({}, { additionalProperties: true }) }), ...E },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return passkeyRegistrationOptions(deps, requireAuth(request));
    },
  );

  app.post(
    '/auth/passkeys/register',
    {
      preHandler: signedIn,
      schema: {
        tags: ['identity'],
        summary: 'Add a passkey: the device’s signed WebAuthn answer',
        body: Type.Object(
          {
            challenge_id: Type.String({ format: 'uuid' }),
            response: Type.Object({ id: Type.String({ minLength: 1, maxLength: 1400 }) }, { additionalProperties: true }),
            name: Type.Optional(SafeString({ maxLength: 80 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: PasskeyListSchema, ...E },
      },
    },
    async (request) => registerPasskey(deps, requireAuth(request), request.body),
  );

  app.delete(
    '/auth/passkeys/:id',
    {
      preHandler: signedIn,
      schema: {
        tags: ['identity'],
        summary: 'Remove one of one’s passkeys',
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        response: { 200: MessageReplySchema, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef },
      },
    },
    async (request) => {
      await removePasskey(deps, requireAuth(request), request.params.id);
      return { success: true, message: 'Passkey removed.' };
    },
  );

  const PolicySchema = Type.Object({
    required_from: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    roles: Type.Array(Type.String()),
    updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  });
  const admins = requireRole(rolesFor('two_factor.policy'));

  app.get(
    '/security/two-factor-policy',
    {
      preHandler: admins,
      schema: {
        tags: ['identity'],
        summary: 'The date from which staff-side roles must use two-factor sign-in (null: not required)',
        response: { 200: PolicySchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async () => getTwoFactorPolicy(deps),
  );

  app.put(
    '/security/two-factor-policy',
    {
      preHandler: admins,
      schema: {
        tags: ['identity'],
        summary: 'Require two-factor sign-in of administrators, managers, staff, accountants and MLROs from a date',
        body: Type.Object({ required_from: Type.Union([Type.String({ format: 'date' }), Type.Null()]) }, { additionalProperties: false }),
        response: { 200: PolicySchema, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request) => setTwoFactorPolicy(deps, requireAuth(request), request.body),
  );

  app.delete(
    '/roles/admin-accounts/:adminId/two-factor',
    {
      preHandler: requireRole(rolesFor('roles')),
      schema: {
        tags: ['identity'],
        summary:
          "Turn another admin panel account's second factor off (administrators; never one's own; recorded as identity.second_factor_reset)",
        params: Type.Object({ adminId: Type.String({ format: 'uuid' }) }),
        response: { 200: MessageReplySchema, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef },
      },
    },
    async (request) => {
      await resetAdminSecondFactor(deps, requireAuth(request), request.params);
      return { success: true, message: 'Two-factor sign-in turned off for this admin panel account.' };
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

type Guard = ReturnType<typeof requireRole>;

/** Status, set-up, confirmation, new recovery codes and turning off, under `prefix`, behind `guard`. */
function ownTotpRoutes(
  app: App,
  deps: { db: Db; cipher: SecretCipher; issuer: () => string },
  prefix: string,
  guard: Guard,
  whose: string,
) {
  app.get(
    prefix,
    {
      preHandler: guard,
      schema: {
        tags: ['identity'],
        summary: 'Whether two-factor sign-in is on, and how many recovery codes are left',
        response: { 200: Type.Object({ totp_enabled: Type.Boolean(), recovery_codes_left: Type.Integer() }), ...E },
      },
    },
    async (request) => getTwoFactor(deps, requireAuth(request)),
  );

  app.post(
    `${prefix}/totp`,
    {
      preHandler: guard,
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
    `${prefix}/totp/confirm`,
    {
      preHandler: guard,
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

  app.post(
    `${prefix}/recovery-codes`,
    {
      preHandler: guard,
      schema: {
        tags: ['identity'],
        summary: 'Ten new recovery codes (the old ones stop working), after a code from the app; shown once',
        body: Type.Object({ code: Type.String({ minLength: 1, maxLength: 12 }) }, { additionalProperties: false }),
        response: { 200: Type.Object({ recovery_codes: Type.Array(Type.String()) }), ...E },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return regenerateRecoveryCodes(deps, requireAuth(request), request.body);
    },
  );

  app.post(
    `${prefix}/disable`,
    {
      preHandler: guard,
      schema: {
        tags: ['identity'],
        summary: `Turn ${whose} own two-factor sign-in off, with the password and a code (or a recovery code)`,
        body: Type.Object(
          {
            password: Type.String({ minLength: 1, maxLength: 200 }),
            code: Type.Optional(Type.String({ maxLength: 12 })),
            recovery_code: Type.Optional(Type.String({ maxLength: 40 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: MessageReplySchema, ...E },
      },
    },
    async (request) => {
      await disableOwnTwoFactor(deps, requireAuth(request), request.body);
      return { success: true, message: 'Two-factor sign-in is off.' };
    },
  );
}
