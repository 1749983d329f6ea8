import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  AcspRecordParamsSchema,
  AcspSettingsInputSchema,
  AcspSettingsSchema,
  AcspVerificationInputSchema,
  AcspVerificationListSchema,
  AcspVerificationReplySchema,
  ClientParamsSchema,
  DeleteReplySchema,
  rolesFor,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type { AmlDeps } from '../use-cases/deps.js';
import {
  deleteAcspVerification,
  findAcspVerifications,
  getAcspSettings,
  recordAcspVerification,
  saveAcspSettings,
} from '../use-cases/identity-verification.js';

const ErrorRef = Type.Ref('ErrorBody');
const E = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef };
const tags = ['aml'];

/** The practice's ACSP verifications of a client's people (issue #30); guards from the permissions table. */
export function identityVerificationRoutes(app: App, deps: AmlDeps) {
  app.get(
    '/acsp-settings',
    {
      preHandler: requireRole(rolesFor('identity_verification.view')),
      schema: { tags, summary: "The practice's ACSP number and AML supervisor", response: { 200: AcspSettingsSchema, ...E } },
    },
    async () => getAcspSettings(deps),
  );

  app.put(
    '/acsp-settings',
    {
      preHandler: requireRole(rolesFor('identity_verification.settings')),
      schema: {
        tags,
        summary: "Save the practice's ACSP number and AML supervisor",
        body: AcspSettingsInputSchema,
        response: { 200: Type.Object({ settings: AcspSettingsSchema, message: Type.String() }), ...E },
      },
    },
    async (request) => saveAcspSettings(deps, requireAuth(request), request.body),
  );

  app.get(
    '/clients/:clientId/identity-verifications',
    {
      preHandler: requireRole(rolesFor('identity_verification.view')),
      schema: {
        tags,
        summary: "A client's ACSP identity verification records",
        params: ClientParamsSchema,
        response: { 200: AcspVerificationListSchema, ...E },
      },
    },
    async (request) => findAcspVerifications(deps, requireAuth(request), request.params.clientId),
  );

  app.post(
    '/clients/:clientId/identity-verifications',
    {
      preHandler: requireRole(rolesFor('identity_verification.record')),
      schema: {
        tags,
        summary: 'Record an identity verification the practice made as an ACSP (personal code, date, evidence from the AML record)',
        params: ClientParamsSchema,
        body: AcspVerificationInputSchema,
        response: { 201: AcspVerificationReplySchema, ...E },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await recordAcspVerification(deps, requireAuth(request), request.params.clientId, request.body)),
  );

  app.delete(
    '/clients/:clientId/identity-verifications/:id',
    {
      preHandler: requireRole(rolesFor('identity_verification.delete')),
      schema: {
        tags,
        summary: 'Delete an ACSP verification record (refused until seven years after the verification)',
        params: AcspRecordParamsSchema,
        response: { 200: DeleteReplySchema, ...E, 409: ErrorRef },
      },
    },
    async (request) => deleteAcspVerification(deps, requireAuth(request), request.params.clientId, request.params.id),
  );
}
