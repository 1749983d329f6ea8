import { Type, type Static } from '@sinclair/typebox';
import { CrmUuid } from './common.js';

/**
 * The summary cards. Exact counts.
 * - Client Management: Total Clients, Active Clients, New Leads (stage new_enquiry), Monthly Revenue
 *   (monthly_revenue: the sum of monthly fees over every client, spec section 9).
 * - Admin Control Panel: Total Clients, Team Members (active staff), Monthly Revenue, Active Plans.
 * - Staff portal: Total Clients, Active Clients, Monthly Revenue.
 */
export const CrmStatsSchema = Type.Object({
  total_clients: Type.Integer({ minimum: 0 }),
  /** subscription_status active. */
  active_clients: Type.Integer({ minimum: 0 }),
  /** Sum of monthly_fee over ALL clients, GBP (spec section 9). */
  monthly_revenue: Type.Number(),
  /** Sum of monthly_fee over active clients only, GBP (what is actually billed each month). */
  active_monthly_revenue: Type.Number(),
  /** Paying clients: subscription_status active (same number as active_clients). */
  active_plans: Type.Integer({ minimum: 0 }),
  /** People with an active admin, manager, staff or accountant role (identity's events). */
  team_members: Type.Integer({ minimum: 0 }),
  total_leads: Type.Integer({ minimum: 0 }),
  /** Leads at stage new_enquiry. */
  new_leads: Type.Integer({ minimum: 0 }),
});
export type CrmStats = Static<typeof CrmStatsSchema>;

/** The admin sidebar's badges (refetched every 30 seconds). */
export const SidebarCountsSchema = Type.Object({
  clients: Type.Integer({ minimum: 0 }),
  leads: Type.Integer({ minimum: 0 }),
  /** Tasks with status pending. */
  pending_tasks: Type.Integer({ minimum: 0 }),
  /** Upgrades with status pending. */
  pending_upgrades: Type.Integer({ minimum: 0 }),
  /** Communications created in the last 24 hours. */
  communications_24h: Type.Integer({ minimum: 0 }),
});
export type SidebarCounts = Static<typeof SidebarCountsSchema>;

export const TEAM_MEMBER_ROLES = ['admin', 'manager', 'staff', 'accountant'] as const;

/** One person of the practice's team (read model fed by identity.role_changed / identity.staff_joined). */
export const TeamMemberSchema = Type.Object({
  user_id: CrmUuid,
  name: Type.String(),
  email: Type.String(),
  /** Active staff roles. */
  roles: Type.Array(Type.String()),
});
export type TeamMember = Static<typeof TeamMemberSchema>;

export const TeamMemberListQuerySchema = Type.Object(
  { role: Type.Optional(Type.Union(TEAM_MEMBER_ROLES.map((r) => Type.Literal(r)))) },
  { additionalProperties: false },
);
export const TeamMemberListSchema = Type.Object({ members: Type.Array(TeamMemberSchema) });
export type TeamMemberList = Static<typeof TeamMemberListSchema>;
