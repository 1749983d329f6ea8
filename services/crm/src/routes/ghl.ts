import { requireRole, type App } from '@countinghouse/kit';
import { GhlConfigSchema, GhlImportResultSchema, rolesFor } from '@countinghouse/proto';
import { getGhlConfig, importFromGhl, type GhlDeps } from '../use-cases/ghl.js';
import { errors } from './shared.js';

export function ghlRoutes(app: App, deps: GhlDeps) {
  const guard = requireRole(rolesFor('leads.import'));

  app.get(
    '/ghl/config',
    {
      preHandler: guard,
      schema: { tags: ['crm'], summary: 'Is the GoHighLevel import configured?', response: { 200: GhlConfigSchema, ...errors } },
    },
    async () => getGhlConfig(deps),
  );

  app.post(
    '/ghl/import',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Fetch every GoHighLevel contact and import them as leads (no duplicates on re-import)',
        response: { 200: GhlImportResultSchema, ...errors, 503: errors[400] },
      },
    },
    async (request) => importFromGhl(deps, request.log),
  );
}
