import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  MTD_ROUTES,
  MtdArnBodySchema,
  MtdAuthorisationRequestBodySchema,
  MtdAuthorisationSchema,
  MtdCalculationSummarySchema,
  MtdClientSchema,
  MtdConnectionSchema,
  MtdDeviceBodySchema,
  MtdExemptionBodySchema,
  MtdFinalCalculationBodySchema,
  MtdFinalDeclarationBodySchema,
  MtdFinalDeclarationSchema,
  MtdIdentifiersBodySchema,
  MtdIncomeBodySchema,
  MtdLedgerMappingsBodySchema,
  MtdLedgerQuerySchema,
  MtdLedgerSchema,
  MtdOverviewSchema,
  MtdPropertyFiguresSchema,
  MtdPropertySubmitBodySchema,
  MtdRefreshDueSchema,
  MtdSubmissionSchema,
  MtdUpdateFiguresSchema,
  MtdUpdateReviewSchema,
  MtdUpdateSubmitBodySchema,
  rolesFor,
  type MtdDevice,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { fraudHeaders } from '../domain/fraud-headers.js';
import {
  cancelAuthorisation,
  checkAuthorisation,
  checkRelationship,
  completeHmrcConnection,
  getCalculation,
  getMtdClient,
  getMtdConnection,
  getMtdOverview,
  recordQualifyingIncome,
  refreshDueObligations,
  refreshObligations,
  requestAuthorisation,
  reviewPropertyUpdate,
  reviewUpdate,
  setArn,
  setExemption,
  setMtdIdentifiers,
  startHmrcConnection,
  triggerFinalCalculation,
  submitFinalDeclaration,
  submitPropertyUpdate,
  submitUpdate,
  type MtdDeps,
} from '../use-cases/mtd.js';
import { changeLedgerMappings, readLedger } from '../use-cases/mtd-ledger.js';
import type { IntegrationsDeps } from '../use-cases/deps.js';

const ErrorRef = Type.Ref('ErrorBody');
const errors = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, 409: ErrorRef, 503: ErrorRef };
const ClientParams = Type.Object({ clientId: Type.String({ format: 'uuid' }) });
const AuthParams = Type.Object({ clientId: Type.String({ format: 'uuid' }), id: Type.String({ format: 'uuid' }) });
const Ok = Type.Object({ ok: Type.Boolean() });

/**
 * The fraud prevention headers of a call made for this request: the browser's half from the body, the
 * server's from the connection (the client's address and port as this server saw them).
 */
function headersFor(deps: MtdDeps, request: FastifyRequest, device: MtdDevice, userId: string) {
  const vendorIp = deps.settings.vendorPublicIp || request.socket.localAddress || '127.0.0.1';
  return fraudHeaders(device, {
    clientIp: request.ip,
    clientPort: request.socket.remotePort ?? 0,
    collectedAt: deps.now(),
    userId,
    multiFactor: [],
    vendorPublicIp: vendorIp.replace(/^::ffff:/, ''),
    productName: deps.settings.productName,
    productVersion: deps.settings.productVersion,
    frontendVersion: deps.settings.productVersion,
  });
}

/** Routes under /api/integrations/mtd (issue 31): permissions mtd, mtd.submit and mtd.connect. */
export function mtdRoutes(app: App, deps: MtdDeps, integrations: IntegrationsDeps) {
  const view = requireRole(rolesFor('mtd'));
  const connectGuard = requireRole(rolesFor('mtd.connect'));
  const submitGuard = requireRole(rolesFor('mtd.submit'));
  const tags = ['mtd'];

  app.get(
    '/mtd/connection',
    {
      preHandler: view,
      schema: { tags, summary: "The practice's HMRC connection and ARN", response: { 200: MtdConnectionSchema, ...errors } },
    },
    async () => getMtdConnection(deps),
  );

  app.put(
    '/mtd/connection/arn',
    {
      preHandler: connectGuard,
      schema: {
        tags,
        summary: "Set the practice's Agent Reference Number",
        body: MtdArnBodySchema,
        response: { 200: MtdConnectionSchema, ...errors },
      },
    },
    async (request) => setArn(deps, request.body.arn),
  );

  app.post(
    '/mtd/connect',
    {
      preHandler: connectGuard,
      schema: {
        tags,
        summary: 'Start (or redo: "reconnect") the OAuth connection to HMRC',
        response: { 200: Type.Object({ authUrl: Type.String() }), ...errors },
      },
    },
    async (request) => ({ authUrl: await startHmrcConnection(deps, requireAuth(request)) }),
  );

  app.get(
    '/mtd/callback',
    {
      logLevel: 'warn',
      schema: {
        tags,
        summary: "HMRC's OAuth redirect (public: the state authenticates it); 302 to /work/mtd?hmrc=connected|error",
        querystring: Type.Object({
          code: Type.Optional(Type.String({ maxLength: 2000 })),
          state: Type.Optional(Type.String({ maxLength: 200 })),
          error: Type.Optional(Type.String({ maxLength: 200 })),
          error_description: Type.Optional(Type.String({ maxLength: 2000 })),
        }),
        response: { 302: Type.Null() },
      },
    },
    async (request, reply) => {
      const result = await completeHmrcConnection(deps, request.query);
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'no-referrer');
      return reply.redirect(`${MTD_ROUTES.page}?hmrc=${result}`, 302);
    },
  );

  app.get(
    '/mtd/overview',
    {
      preHandler: view,
      schema: { tags, summary: 'Every visible client: authorisation, scope, obligations', response: { 200: MtdOverviewSchema, ...errors } },
    },
    async (request) => getMtdOverview(deps, requireAuth(request)),
  );

  app.get(
    '/mtd/clients/:clientId',
    {
      preHandler: view,
      schema: { tags, summary: "A client's MTD record", params: ClientParams, response: { 200: MtdClientSchema, ...errors } },
    },
    async (request) => getMtdClient(deps, requireAuth(request), request.params.clientId),
  );

  app.put(
    '/mtd/clients/:clientId/identifiers',
    {
      preHandler: view,
      schema: {
        tags,
        summary: 'NINO and postcode',
        params: ClientParams,
        body: MtdIdentifiersBodySchema,
        response: { 200: Ok, ...errors },
      },
    },
    async (request) => {
      await setMtdIdentifiers(deps, requireAuth(request), request.params.clientId, request.body);
      return { ok: true };
    },
  );

  app.post(
    '/mtd/clients/:clientId/income',
    {
      preHandler: view,
      schema: {
        tags,
        summary: 'Record qualifying income for a tax year',
        params: ClientParams,
        body: MtdIncomeBodySchema,
        response: { 201: Ok, ...errors },
      },
    },
    async (request, reply) => {
      await recordQualifyingIncome(deps, requireAuth(request), request.params.clientId, request.body);
      return reply.status(201).send({ ok: true });
    },
  );

  app.put(
    '/mtd/clients/:clientId/exemption',
    {
      preHandler: view,
      schema: {
        tags,
        summary: 'Record (or clear, null) an exemption and its reason',
        params: ClientParams,
        body: MtdExemptionBodySchema,
        response: { 200: Ok, ...errors },
      },
    },
    async (request) => {
      await setExemption(deps, requireAuth(request), request.params.clientId, request.body.reason);
      return { ok: true };
    },
  );

  app.post(
    '/mtd/clients/:clientId/authorisations',
    {
      preHandler: view,
      schema: {
        tags,
        summary: 'Request authorisation (MTD-IT, main or supporting agent); also "resend" after expiry or cancel',
        params: ClientParams,
        body: MtdAuthorisationRequestBodySchema,
        response: { 201: MtdAuthorisationSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await requestAuthorisation(deps, requireAuth(request), request.params.clientId, request.body.agentType)),
  );

  app.post(
    '/mtd/clients/:clientId/authorisations/:id/check',
    {
      preHandler: view,
      schema: {
        tags,
        summary: "Read the request's status back from HMRC",
        params: AuthParams,
        response: { 200: MtdAuthorisationSchema, ...errors },
      },
    },
    async (request) => checkAuthorisation(deps, requireAuth(request), request.params.clientId, request.params.id),
  );

  app.post(
    '/mtd/clients/:clientId/authorisations/:id/cancel',
    {
      preHandler: view,
      schema: { tags, summary: 'Cancel a pending request', params: AuthParams, response: { 200: MtdAuthorisationSchema, ...errors } },
    },
    async (request) => cancelAuthorisation(deps, requireAuth(request), request.params.clientId, request.params.id),
  );

  app.post(
    '/mtd/clients/:clientId/relationship',
    {
      preHandler: view,
      schema: {
        tags,
        summary: 'Check the agent-client relationship at HMRC',
        params: ClientParams,
        response: { 200: Type.Object({ active: Type.Boolean() }), ...errors },
      },
    },
    async (request) => checkRelationship(deps, requireAuth(request), request.params.clientId),
  );

  app.post(
    '/mtd/clients/:clientId/obligations/refresh',
    {
      preHandler: view,
      schema: {
        tags,
        summary: 'Read businesses and obligations from HMRC now',
        params: ClientParams,
        body: MtdDeviceBodySchema,
        response: { 200: Type.Object({ obligations: Type.Integer() }), ...errors },
      },
    },
    async (request) => {
      const p = requireAuth(request);
      const n = await refreshObligations(deps, p, request.params.clientId, headersFor(deps, request, request.body.device, p.id));
      return { obligations: n };
    },
  );

  app.post(
    '/mtd/obligations/refresh-due',
    {
      preHandler: view,
      schema: {
        tags,
        summary:
          'Read again from HMRC the obligations of up to five authorised clients whose last reading is a day old (the MTD page asks until none remain)',
        body: MtdDeviceBodySchema,
        response: { 200: MtdRefreshDueSchema, ...errors },
      },
    },
    async (request) => {
      const p = requireAuth(request);
      return refreshDueObligations(deps, p, headersFor(deps, request, request.body.device, p.id));
    },
  );

  app.get(
    '/mtd/clients/:clientId/ledger',
    {
      preHandler: view,
      schema: {
        tags,
        summary:
          "The client's connected Xero or QuickBooks profit and loss for the tax year to date, by account, with the practice's category mapping and the figures it gives",
        params: ClientParams,
        querystring: MtdLedgerQuerySchema,
        response: { 200: MtdLedgerSchema, ...errors },
      },
    },
    async (request) => readLedger({ mtd: deps, integrations }, requireAuth(request), request.params.clientId, request.query),
  );

  app.put(
    '/mtd/clients/:clientId/ledger/mappings',
    {
      preHandler: view,
      schema: {
        tags,
        summary: "Map the client's ledger accounts to HMRC's categories (income, other income, an expense category, or left out)",
        params: ClientParams,
        body: MtdLedgerMappingsBodySchema,
        response: { 200: Type.Object({ ok: Type.Boolean(), message: Type.String() }), ...errors },
      },
    },
    async (request) => changeLedgerMappings(deps, requireAuth(request), request.params.clientId, request.body),
  );

  app.post(
    '/mtd/clients/:clientId/updates/review',
    {
      preHandler: view,
      schema: {
        tags,
        summary: 'The exact quarterly cumulative update that would be sent, for review (nothing is sent)',
        params: ClientParams,
        body: MtdUpdateFiguresSchema,
        response: { 200: MtdUpdateReviewSchema, ...errors },
      },
    },
    async (request) => reviewUpdate(deps, requireAuth(request), request.params.clientId, request.body),
  );

  app.post(
    '/mtd/clients/:clientId/updates',
    {
      preHandler: submitGuard,
      schema: {
        tags,
        summary: 'Send the reviewed update to HMRC (confirmed: true and the review hash), then trigger an in-year calculation',
        params: ClientParams,
        body: MtdUpdateSubmitBodySchema,
        response: { 201: MtdSubmissionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const p = requireAuth(request);
      const receipt = await submitUpdate(
        deps,
        p,
        request.params.clientId,
        request.body,
        headersFor(deps, request, request.body.device, p.id),
      );
      return reply.status(201).send(receipt);
    },
  );

  app.post(
    '/mtd/clients/:clientId/property-updates/review',
    {
      preHandler: view,
      schema: {
        tags,
        summary: 'The exact UK property cumulative update that would be sent (Property Business 6.0), for review (nothing is sent)',
        params: ClientParams,
        body: MtdPropertyFiguresSchema,
        response: { 200: MtdUpdateReviewSchema, ...errors },
      },
    },
    async (request) => reviewPropertyUpdate(deps, requireAuth(request), request.params.clientId, request.body),
  );

  app.post(
    '/mtd/clients/:clientId/property-updates',
    {
      preHandler: submitGuard,
      schema: {
        tags,
        summary: 'Send the reviewed UK property update to HMRC (confirmed: true and the review hash), then trigger an in-year calculation',
        params: ClientParams,
        body: MtdPropertySubmitBodySchema,
        response: { 201: MtdSubmissionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const p = requireAuth(request);
      const receipt = await submitPropertyUpdate(
        deps,
        p,
        request.params.clientId,
        request.body,
        headersFor(deps, request, request.body.device, p.id),
      );
      return reply.status(201).send(receipt);
    },
  );

  app.post(
    '/mtd/clients/:clientId/final-declaration/calculation',
    {
      preHandler: submitGuard,
      schema: {
        tags,
        summary: "Ask HMRC for the year's intent-to-finalise calculation, the figures a final declaration agrees to",
        params: ClientParams,
        body: MtdFinalCalculationBodySchema,
        response: { 201: Type.Object({ calculationId: Type.String() }), ...errors },
      },
    },
    async (request, reply) => {
      const p = requireAuth(request);
      const made = await triggerFinalCalculation(
        deps,
        p,
        request.params.clientId,
        request.body.taxYear,
        headersFor(deps, request, request.body.device, p.id),
      );
      return reply.status(201).send(made);
    },
  );

  app.post(
    '/mtd/clients/:clientId/final-declaration',
    {
      preHandler: submitGuard,
      schema: {
        tags,
        summary:
          "Submit the year's final declaration, agreeing to the intent-to-finalise calculation (the agent confirms HMRC's declaration)",
        params: ClientParams,
        body: MtdFinalDeclarationBodySchema,
        response: { 201: MtdFinalDeclarationSchema, ...errors },
      },
    },
    async (request, reply) => {
      const p = requireAuth(request);
      const receipt = await submitFinalDeclaration(
        deps,
        p,
        request.params.clientId,
        request.body,
        headersFor(deps, request, request.body.device, p.id),
      );
      return reply.status(201).send(receipt);
    },
  );

  app.post(
    '/mtd/clients/:clientId/calculations/:calculationId',
    {
      preHandler: view,
      schema: {
        tags,
        summary: 'Read a triggered in-year calculation from HMRC and its headline figures',
        params: Type.Object({ clientId: Type.String({ format: 'uuid' }), calculationId: Type.String({ minLength: 1, maxLength: 100 }) }),
        body: MtdDeviceBodySchema,
        response: { 200: MtdCalculationSummarySchema, ...errors },
      },
    },
    async (request) => {
      const p = requireAuth(request);
      return getCalculation(
        deps,
        p,
        request.params.clientId,
        request.params.calculationId,
        headersFor(deps, request, request.body.device, p.id),
      );
    },
  );
}
