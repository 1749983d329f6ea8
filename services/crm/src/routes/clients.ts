import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  ClientCreateBodySchema,
  ClientProfileBodySchema,
  ClientListQuerySchema,
  ClientListSchema,
  ClientSchema,
  ClientUpdateBodySchema,
  rolesFor,
} from '@countinghouse/proto';
import { addClient, changeClient, changeMyProfile, findClients, getClientFor, getMyClient } from '../use-cases/clients.js';
import type { CrmDeps } from '../use-cases/deps.js';
import { errors, IdParams } from './shared.js';

export function clientRoutes(app: App, deps: CrmDeps) {
  app.get(
    '/clients',
    {
      preHandler: requireRole(rolesFor('clients.view')),
      schema: {
        tags: ['crm'],
        summary: 'Client list: search, status and package filters, newest first (accountants see only their clients)',
        querystring: ClientListQuerySchema,
        response: { 200: ClientListSchema, ...errors },
      },
    },
    async (request) => findClients(deps, requireAuth(request), request.query),
  );

  app.get(
    '/clients/mine',
    {
      schema: {
        tags: ['crm'],
        summary: "The signed-in client's own business record",
        response: { 200: ClientSchema, ...errors },
      },
    },
    async (request) => getMyClient(deps, requireAuth(request)),
  );

  app.patch(
    '/clients/mine',
    {
      // Clients only, on their own record (keyed on their user id): staff edit clients through /clients/:id.
      preHandler: requireRole(['client'], { kind: 'user' }),
      schema: {
        tags: ['crm'],
        summary:
          'The signed-in client edits their own business profile: business and contact name, phone, business type, employees (never e-mail, status, package, fee or assignment)',
        body: ClientProfileBodySchema,
        response: { 200: ClientSchema, ...errors },
      },
    },
    async (request) => changeMyProfile(deps, requireAuth(request), request.body),
  );

  app.get(
    '/clients/:id',
    {
      preHandler: requireRole(rolesFor('clients.view')),
      schema: { tags: ['crm'], summary: 'One client', params: IdParams, response: { 200: ClientSchema, ...errors } },
    },
    async (request) => getClientFor(deps, requireAuth(request), request.params.id),
  );

  app.post(
    '/clients',
    {
      preHandler: requireRole(rolesFor('clients.edit')),
      schema: {
        tags: ['crm'],
        summary: 'Add Client (the fee follows the package)',
        body: ClientCreateBodySchema,
        response: { 201: ClientSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await addClient(deps, requireAuth(request), request.body)),
  );

  app.patch(
    '/clients/:id',
    {
      preHandler: requireRole(rolesFor('clients.edit')),
      schema: {
        tags: ['crm'],
        summary: 'Edit a client (changing the package changes the fee)',
        params: IdParams,
        body: ClientUpdateBodySchema,
        response: { 200: ClientSchema, ...errors },
      },
    },
    async (request) => changeClient(deps, requireAuth(request), request.params.id, request.body),
  );
}
