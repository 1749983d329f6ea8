import type { DbOrTx } from '@countinghouse/kit';
import type { SidebarCounts, TeamMember } from '@countinghouse/proto';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { CrmScope } from '../domain/access.js';
import { clientSearch } from './clients.js';
import { leadSearch } from './leads.js';
import { clients, communications, clientUpgrades, leads, tasks, teamMembers } from './schema.js';
import { accountantTasks, taskSearch } from './tasks.js';

export type StatsRow = {
  total_clients: number;
  active_clients: number;
  monthly_revenue: string;
  active_monthly_revenue: string;
  team_members: number;
  total_leads: number;
  new_leads: number;
};

/** The summary cards' figures from the counters kept by triggers: a handful of rows, whatever the table sizes. */
export async function readStats(db: DbOrTx): Promise<StatsRow> {
  const { rows } = await db.execute<StatsRow>(sql`
        select
          coalesce((select sum(clients) from crm.client_totals), 0)::int as total_clients,
          coalesce((select clients from crm.client_totals where subscription_status = 'active'), 0)::int as active_clients,
          coalesce((select sum(revenue) from crm.client_totals), 0)::text as monthly_revenue,
          coalesce((select revenue from crm.client_totals where subscription_status = 'active'), 0)::text as active_monthly_revenue,
          (select count(distinct user_id) from crm.team_members where is_active)::int as team_members,
          coalesce((select sum(leads) from crm.lead_totals), 0)::int as total_leads,
          coalesce((select leads from crm.lead_totals where stage = 'new_enquiry'), 0)::int as new_leads`);
  return rows[0]!;
}

/** The admin sidebar's badges. */
export async function readSidebarCounts(db: DbOrTx): Promise<SidebarCounts> {
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
}

/** The header search: the top `limit` clients, leads (staff only) and tasks matching the text, within the scope. */
export async function searchAll(db: DbOrTx, s: CrmScope, text: string, limit: number) {
  return Promise.all([
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
      .limit(limit),
    s.kind === 'staff'
      ? db
          .select({ id: leads.id, name: leads.name, email: leads.email, company_name: leads.companyName, stage: leads.stage })
          .from(leads)
          .where(leadSearch(text))
          .orderBy(desc(leads.createdAt), desc(leads.id))
          .limit(limit)
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
      .limit(limit),
  ]);
}

/** Active team members, one row per person (their newest name and e-mail, all their roles), optionally with one role. */
export async function listTeamMembers(db: DbOrTx, role: string | undefined): Promise<TeamMember[]> {
  return db
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
}
