import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  ClientUpgradeSchema,
  UpgradeCreateBodySchema,
  UpgradeListQuerySchema,
  UpgradeListSchema,
  UpgradeUpdateBodySchema,
  rolesFor,
} from '@countinghouse/proto';
import type { CrmDeps } from '../use-cases/deps.js';
import { decideUpgrade, findUpgrades, getUpgrade, requestUpgrade } from '../use-cases/upgrades.js';
import { errors, IdParams } from './shared.js';

export function upgradeRoutes(app: App, deps: CrmDeps) {
  const guard = requireRole(rolesFor('upgrades.manage'));

  app.get(
    '/upgrades',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Package upgrade requests, newest first',
        querystring: UpgradeListQuerySchema,
        response: { 200: UpgradeListSchema, ...errors },
      },
    },
    async (request) => findUpgrades(deps, request.query),
  );

  app.get(
    '/upgrades/:id',
    {
      preHandler: guard,
      schema: { tags: ['crm'], summary: 'One upgrade', params: IdParams, response: { 200: ClientUpgradeSchema, ...errors } },
    },
    async (request) => getUpgrade(deps, request.params.id),
  );

  app.post(
    '/upgrades',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: "Request a change of a client's package",
        body: UpgradeCreateBodySchema,
        response: { 201: ClientUpgradeSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await requestUpgrade(deps, request.body)),
  );

  app.patch(
    '/upgrades/:id',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Approve, reject or complete an upgrade; completing moves the client to the new package',
        params: IdParams,
        body: UpgradeUpdateBodySchema,
        response: { 200: ClientUpgradeSchema, ...errors },
      },
    },
    async (request) => decideUpgrade(deps, requireAuth(request), request.params.id, request.body),
  );
}
