import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  LeadConvertBodySchema,
  LeadConvertReplySchema,
  LeadCreateBodySchema,
  LeadListQuerySchema,
  LeadListSchema,
  LeadSchema,
  LeadUpdateBodySchema,
  rolesFor,
} from '@countinghouse/proto';
import type { CrmDeps } from '../use-cases/deps.js';
import { addLead, changeLead, convertLead, findLeads, getLead } from '../use-cases/leads.js';
import { errors, IdParams } from './shared.js';

export function leadRoutes(app: App, deps: CrmDeps) {
  const guard = requireRole(rolesFor('leads.manage'));

  app.get(
    '/leads',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Leads, newest first, with search and stage/source filters',
        querystring: LeadListQuerySchema,
        response: { 200: LeadListSchema, ...errors },
      },
    },
    async (request) => findLeads(deps, request.query),
  );

  app.get(
    '/leads/:id',
    { preHandler: guard, schema: { tags: ['crm'], summary: 'One lead', params: IdParams, response: { 200: LeadSchema, ...errors } } },
    async (request) => getLead(deps, request.params.id),
  );

  app.post(
    '/leads',
    {
      preHandler: guard,
      schema: { tags: ['crm'], summary: 'Add Lead', body: LeadCreateBodySchema, response: { 201: LeadSchema, ...errors } },
    },
    async (request, reply) => reply.status(201).send(await addLead(deps, request.body)),
  );

  app.patch(
    '/leads/:id',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Edit a lead or move it to another stage',
        params: IdParams,
        body: LeadUpdateBodySchema,
        response: { 200: LeadSchema, ...errors },
      },
    },
    async (request) => changeLead(deps, request.params.id, request.body),
  );

  app.post(
    '/leads/:id/convert',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Convert a won lead into a client (once)',
        params: IdParams,
        body: LeadConvertBodySchema,
        response: { 201: LeadConvertReplySchema, ...errors },
      },
    },
    async (request, reply) => {
      const p = requireAuth(request);
      return reply.status(201).send(await convertLead(deps, p, request.params.id, request.body ?? {}));
    },
  );
}
