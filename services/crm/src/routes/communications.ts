import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  CommunicationCreateBodySchema,
  CommunicationListQuerySchema,
  CommunicationListSchema,
  CommunicationSchema,
  rolesFor,
} from '@countinghouse/proto';
import { findCommunications, getCommunication, logCommunication } from '../use-cases/communications.js';
import type { CrmDeps } from '../use-cases/deps.js';
import { errors, IdParams } from './shared.js';

export function communicationRoutes(app: App, deps: CrmDeps) {
  const guard = requireRole(rolesFor('communications.manage'));

  app.get(
    '/communications',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Communications with clients, newest first',
        querystring: CommunicationListQuerySchema,
        response: { 200: CommunicationListSchema, ...errors },
      },
    },
    async (request) => findCommunications(deps, request.query),
  );

  app.get(
    '/communications/:id',
    {
      preHandler: guard,
      schema: { tags: ['crm'], summary: 'One communication', params: IdParams, response: { 200: CommunicationSchema, ...errors } },
    },
    async (request) => getCommunication(deps, request.params.id),
  );

  app.post(
    '/communications',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Log a call, e-mail, meeting, letter or portal message with a client',
        body: CommunicationCreateBodySchema,
        response: { 201: CommunicationSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await logCommunication(deps, requireAuth(request), request.body)),
  );
}
