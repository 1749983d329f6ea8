import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  CrmStatsSchema,
  SearchQuerySchema,
  SearchResultSchema,
  SidebarCountsSchema,
  TeamMemberListQuerySchema,
  TeamMemberListSchema,
  rolesFor,
} from '@countinghouse/proto';
import type { CrmDeps } from '../use-cases/deps.js';
import { findTeamMembers, getSidebarCounts, getStats, searchCrm } from '../use-cases/overview.js';
import { errors } from './shared.js';

export function overviewRoutes(app: App, deps: CrmDeps) {
  app.get(
    '/stats',
    {
      preHandler: requireRole(rolesFor('crm.overview')),
      schema: {
        tags: ['crm'],
        summary: 'Summary cards: clients, revenue, plans, team, leads (exact)',
        response: { 200: CrmStatsSchema, ...errors },
      },
    },
    async () => getStats(deps),
  );

  app.get(
    '/sidebar-counts',
    {
      preHandler: requireRole(rolesFor('crm.overview')),
      schema: { tags: ['crm'], summary: "The admin sidebar's badges", response: { 200: SidebarCountsSchema, ...errors } },
    },
    async () => getSidebarCounts(deps),
  );

  app.get(
    '/search',
    {
      preHandler: requireRole(rolesFor('clients.view')),
      schema: {
        tags: ['crm'],
        summary: "The header search: clients, leads and tasks, top 5 of each (an accountant's own only)",
        querystring: SearchQuerySchema,
        response: { 200: SearchResultSchema, ...errors },
      },
    },
    async (request) => searchCrm(deps, requireAuth(request), request.query),
  );

  app.get(
    '/team-members',
    {
      preHandler: requireRole(rolesFor('crm.overview')),
      schema: {
        tags: ['crm'],
        summary: 'Active team members (for assigning accountants and tasks)',
        querystring: TeamMemberListQuerySchema,
        response: { 200: TeamMemberListSchema, ...errors },
      },
    },
    async (request) => findTeamMembers(deps, request.query),
  );
}
