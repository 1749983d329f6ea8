import type { Principal } from '@countinghouse/kit';
import type { CrmStats, SearchQuery, SearchResult, SidebarCounts, TeamMemberList } from '@countinghouse/proto';
import { listTeamMembers, readSidebarCounts, readStats, searchAll } from '../db/overview.js';
import { scopeOf } from '../domain/access.js';
import type { CrmDeps } from './deps.js';

/** Summary cards: clients, revenue, plans, team, leads (exact, from the counters). */
export async function getStats(deps: CrmDeps): Promise<CrmStats> {
  const r = await readStats(deps.db);
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
}

export async function getSidebarCounts(deps: CrmDeps): Promise<SidebarCounts> {
  return readSidebarCounts(deps.db);
}

/** The header search: clients, leads and tasks, top `limit` of each (an accountant's own only, no leads). */
export async function searchCrm(deps: CrmDeps, principal: Principal, q: SearchQuery): Promise<SearchResult> {
  const text = q.q.trim();
  const s = scopeOf(principal);
  if (!text) return { clients: [], leads: [], tasks: [] };
  const [c, l, t] = await searchAll(deps.db, s, text, q.limit);
  return {
    clients: c,
    leads: l,
    tasks: t,
  };
}

/** Active team members (for assigning accountants and tasks). */
export async function findTeamMembers(deps: CrmDeps, q: { role?: string }): Promise<TeamMemberList> {
  return { members: await listTeamMembers(deps.db, q.role) };
}
