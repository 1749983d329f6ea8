import { requireRole, type App } from '@countinghouse/kit';
import { ClientsReportSchema, LeadsReportSchema, REPORT_ROLES, ReportRangeQuerySchema } from '@countinghouse/proto';
import type { CrmDeps } from '../use-cases/deps.js';
import { reportClients, reportLeads } from '../use-cases/reports.js';
import { errors } from './shared.js';

/** Reports on crm's own data, for administrators only: clients by package and status, the lead funnel. */
export function reportRoutes(app: App, deps: CrmDeps) {
  const guard = requireRole(REPORT_ROLES);

  app.get(
    '/reports/clients',
    {
      preHandler: guard,
      schema: {
        tags: ['crm', 'reports'],
        summary: 'Clients registered in the range, by package and by status (admin only)',
        querystring: ReportRangeQuerySchema,
        response: { 200: ClientsReportSchema, ...errors },
      },
    },
    async (request) => reportClients(deps, request.query),
  );

  app.get(
    '/reports/leads',
    {
      preHandler: guard,
      schema: {
        tags: ['crm', 'reports'],
        summary: 'Leads created in the range: the funnel by stage, and by source with conversion rates (admin only)',
        querystring: ReportRangeQuerySchema,
        response: { 200: LeadsReportSchema, ...errors },
      },
    },
    async (request) => reportLeads(deps, request.query),
  );
}
