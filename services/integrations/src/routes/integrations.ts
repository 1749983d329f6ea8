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
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { completeConnection } from '../use-cases/complete-connection.js';
import type { IntegrationsDeps } from '../use-cases/deps.js';
import { disconnectIntegration } from '../use-cases/disconnect-integration.js';
import { getSyncJob } from '../use-cases/get-sync-job.js';
import { listIntegrations } from '../use-cases/list-integrations.js';
import { requestSync } from '../use-cases/request-sync.js';
import { startConnection } from '../use-cases/start-connection.js';

const ErrorRef = Type.Ref('ErrorBody');
const errors = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, 409: ErrorRef, 503: ErrorRef };

/** Routes under /api/integrations. Every one but the provider callback needs a signed-in caller. */
export function integrationRoutes(app: App, deps: IntegrationsDeps) {
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
    async (request) => listIntegrations(deps, requireAuth(request), { clientId: request.query.client_id }),
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
    async (request) => ({
      authUrl: await startConnection(deps, requireAuth(request), { provider: request.params.provider }),
    }),
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
      const { provider } = request.params;
      const result = await completeConnection(deps, { provider, callback: request.query });
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
      const jobId = await requestSync(deps, requireAuth(request), { provider: request.params.provider });
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
    async (request) => getSyncJob(deps, requireAuth(request), { jobId: request.params.id }),
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
      await disconnectIntegration(deps, requireAuth(request), { provider: request.params.provider });
      return { success: true, message: MESSAGES.integrationDisconnected };
    },
  );
}
