import { requireRole, type App } from '@countinghouse/kit';
import {
  CrmStatsSchema,
  SearchQuerySchema,
  SearchResultSchema,
  SidebarCountsSchema,
  TeamMemberListQuerySchema,
  TeamMemberListSchema,
  type LeadStage,
  type SubscriptionStatus,
  type TaskStatus,
  rolesFor,
} from '@countinghouse/proto';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { clients, communications, clientUpgrades, leads, tasks, teamMembers } from '../db/schema.js';
import { clientSearch } from './clients.js';
import { leadSearch } from './leads.js';
import { errors, scope, type RouteDeps } from './shared.js';
import { accountantTasks, taskSearch } from './tasks.js';

export function overviewRoutes(app: App, { db }: RouteDeps) {
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
    async () => {
      // Counters kept by triggers in the same transactions as the writes: a handful of rows, whatever the table sizes.
      const { rows } = await db.execute<{
        total_clients: number;
        active_clients: number;
        monthly_revenue: string;
        active_monthly_revenue: string;
        team_members: number;
        total_leads: number;
        new_leads: number;
      }>(sql`
        select
          coalesce((select sum(clients) from crm.client_totals), 0)::int as total_clients,
          coalesce((select clients from crm.client_totals where subscription_status = 'active'), 0)::int as active_clients,
          coalesce((select sum(revenue) from crm.client_totals), 0)::text as monthly_revenue,
          coalesce((select revenue from crm.client_totals where subscription_status = 'active'), 0)::text as active_monthly_revenue,
          (select count(distinct user_id) from crm.team_members where is_active)::int as team_members,
          coalesce((select sum(leads) from crm.lead_totals), 0)::int as total_leads,
          coalesce((select leads from crm.lead_totals where stage = 'new_enquiry'), 0)::int as new_leads`);
      const r = rows[0]!;
      return {
        total_clients: r.total_clients,
        active_clients: r.active_clients,
        monthly_revenue: Number(r.monthly_revenue),
        active_monthly_revenue: Number(r.active_monthly_revenue),
        active_plans: r.active_clients,
        team_members: r.team_members,
        total_leads: r.total_leads,
        new_leads: r.new_leads,
      };
    },
  );

  app.get(
    '/sidebar-counts',
    {
      preHandler: requireRole(rolesFor('crm.overview')),
      schema: { tags: ['crm'], summary: "The admin sidebar's badges", response: { 200: SidebarCountsSchema, ...errors } },
    },
    async () => {
      const { rows } = await db.execute<{
        clients: number;
        leads: number;
        pending_tasks: number;
        pending_upgrades: number;
        communications_24h: number;
      }>(sql`
        select
          coalesce((select sum(clients) from crm.client_totals), 0)::int as clients,
          coalesce((select sum(leads) from crm.lead_totals), 0)::int as leads,
          (select count(*) from ${tasks} where status = 'pending')::int as pending_tasks,
          (select count(*) from ${clientUpgrades} where status = 'pending')::int as pending_upgrades,
          (select count(*) from ${communications} where created_at > now() - interval '24 hours')::int as communications_24h`);
      return rows[0]!;
    },
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
    async (request) => {
      const q = request.query;
      const text = q.q.trim();
      const s = scope(request);
      if (!text) return { clients: [], leads: [], tasks: [] };
      const [c, l, t] = await Promise.all([
        db
          .select({
            id: clients.id,
            company_name: clients.companyName,
            contact_name: clients.contactName,
            contact_email: clients.contactEmail,
            subscription_status: clients.subscriptionStatus,
          })
          .from(clients)
          .where(and(clientSearch(text), s.kind === 'accountant' ? eq(clients.assignedAccountantId, s.userId) : undefined))
          .orderBy(desc(clients.createdAt), desc(clients.id))
          .limit(q.limit),
        s.kind === 'staff'
          ? db
              .select({ id: leads.id, name: leads.name, email: leads.email, company_name: leads.companyName, stage: leads.stage })
              .from(leads)
              .where(leadSearch(text))
              .orderBy(desc(leads.createdAt), desc(leads.id))
              .limit(q.limit)
          : Promise.resolve([]),
        db
          .select({
            id: tasks.id,
            title: tasks.title,
            status: tasks.status,
            due_date: tasks.dueDate,
            client_company_name: clients.companyName,
          })
          .from(tasks)
          .leftJoin(clients, eq(clients.id, tasks.clientId))
          .where(and(taskSearch(text), accountantTasks(s)))
          .orderBy(desc(tasks.createdAt), asc(tasks.id))
          .limit(q.limit),
      ]);
      return {
        clients: c.map((r) => ({ ...r, subscription_status: r.subscription_status as SubscriptionStatus })),
        leads: l.map((r) => ({ ...r, stage: r.stage as LeadStage })),
        tasks: t.map((r) => ({ ...r, status: r.status as TaskStatus })),
      };
    },
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
    async (request) => {
      const { role } = request.query;
      const rows = await db
        .select({
          user_id: teamMembers.userId,
          name: sql<string>`(array_agg(${teamMembers.name} order by ${teamMembers.changedAt} desc))[1]`,
          email: sql<string>`(array_agg(${teamMembers.email} order by ${teamMembers.changedAt} desc))[1]`,
          roles: sql<string[]>`array_agg(${teamMembers.role} order by ${teamMembers.role})`,
        })
        .from(teamMembers)
        .where(eq(teamMembers.isActive, true))
        .groupBy(teamMembers.userId)
        .having(role ? sql`bool_or(${teamMembers.role} = ${role})` : undefined)
        .orderBy(sql`2`);
      return { members: rows };
    },
  );
}
