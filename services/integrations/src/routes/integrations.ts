import { requireAuth, type App } from '@countinghouse/kit';
import {
  CallbackQuerySchema,
  ConnectReplySchema,
  DisconnectReplySchema,
  INTEGRATIONS_ROUTES,
  IntegrationListQuerySchema,
  IntegrationListSchema,
  MESSAGES,
  ProviderParamsSchema,
  SyncJobSchema,
  SyncReplySchema,
  type IntegrationListQuery,
  type IntegrationType,
} from '@countinghouse/proto';
import { Type, type Static } from '@sinclair/typebox';
import type { IntegrationsService } from '../integrations-service.js';

type ProviderParams = { provider: IntegrationType };

const ErrorRef = Type.Ref('ErrorBody');
const errors = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, 409: ErrorRef, 503: ErrorRef };

/** Routes under /api/integrations. Every one but the provider callback needs a signed-in caller. */
export function integrationRoutes(app: App, svc: IntegrationsService) {
  app.get(
    '/',
    {
      schema: {
        tags: ['integrations'],
        summary: "The signed-in client's integrations, one card per provider (staff: ?client_id= for a client's summary)",
        querystring: IntegrationListQuerySchema,
        response: { 200: IntegrationListSchema, ...errors },
      },
    },
    async (request) => svc.list(requireAuth(request), (request.query as IntegrationListQuery).client_id),
  );

  app.post(
    '/:provider/connect',
    {
      schema: {
        tags: ['integrations'],
        summary: 'connect-xero / connect-quickbooks: start the OAuth authorization; the browser then navigates to authUrl',
        params: ProviderParamsSchema,
        response: { 200: ConnectReplySchema, ...errors },
      },
    },
    async (request) => ({ authUrl: await svc.startConnect(requireAuth(request), (request.params as ProviderParams).provider) }),
  );

  app.get(
    '/:provider/callback',
    {
      // The query carries a one-time code and state: keep this route's request lines out of the info log.
      logLevel: 'warn',
      schema: {
        tags: ['integrations'],
        summary: "The provider's redirect (public: the state authenticates it); answers 302 to /integrations?{provider}=connected|error",
        params: ProviderParamsSchema,
        querystring: CallbackQuerySchema,
        response: { 302: Type.Null() },
      },
    },
    async (request, reply) => {
      const { provider } = request.params as ProviderParams;
      const result = await svc.completeConnect(provider, request.query as Static<typeof CallbackQuerySchema>);
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'no-referrer');
      return reply.redirect(`${INTEGRATIONS_ROUTES.page}?${provider}=${result}`, 302);
    },
  );

  app.post(
    '/:provider/sync',
    {
      schema: {
        tags: ['integrations'],
        summary: 'sync-xero-data / sync-quickbooks-data: queue a sync job',
        params: ProviderParamsSchema,
        response: { 202: SyncReplySchema, ...errors },
      },
    },
    async (request, reply) => {
      const jobId = await svc.requestSync(requireAuth(request), (request.params as ProviderParams).provider);
      return reply.status(202).send({ jobId });
    },
  );

  app.get(
    '/jobs/:id',
    {
      schema: {
        tags: ['integrations'],
        summary: "A sync job's state and progress",
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: SyncJobSchema, ...errors },
      },
    },
    async (request) => svc.jobStatus(requireAuth(request), (request.params as { id: string }).id),
  );

  app.post(
    '/:provider/disconnect',
    {
      schema: {
        tags: ['integrations'],
        summary: 'Disconnect: is_active false, the record kept, the grant revoked at the provider',
        params: ProviderParamsSchema,
        response: { 200: DisconnectReplySchema, ...errors },
      },
    },
    async (request) => {
      await svc.disconnect(requireAuth(request), (request.params as ProviderParams).provider);
      return { success: true, message: MESSAGES.integrationDisconnected };
    },
  );
}
