import { subscribe, type ConsumerRuntime, type DbOrTx, type EventOf } from '@countinghouse/kit';
import { TEAM_MEMBER_ROLES } from '@countinghouse/proto';
import { insertTeamMemberIfAbsent, upsertTeamMember } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';

/**
 * What crm publishes and consumes.
 *
 * Publishes (through the outbox, in the transaction of the change):
 * - crm.client_upserted on every client create, update, lead conversion and completed upgrade.
 *
 * Consumes:
 * - identity.role_changed → the team_members read model (Team Members card, accountant and assignee
 *   names). Newer events win over older ones (changed_at), redelivery is harmless (idempotent).
 * - identity.staff_joined → a team member row if role_changed has not arrived yet.
 * - billing's subscription events (consumers/billing-subscriptions.ts) and deadlines.task_requested
 *   (consumers/deadline-tasks.ts).
 */
export async function subscribeCrmConsumers(runtime: ConsumerRuntime): Promise<void> {
  await subscribe(runtime, {
    group: 'crm.team-members',
    types: ['identity.role_changed', 'identity.staff_joined'],
    schema: SCHEMA,
    handler: async (e, tx) => {
      if (e.type === 'identity.role_changed') await applyRoleChanged(tx, e);
      else await applyStaffJoined(tx, e);
    },
  });
}

const isTeamRole = (role: string) => TEAM_MEMBER_ROLES.some((r) => r === role);

export async function applyRoleChanged(tx: DbOrTx, e: EventOf<'identity.role_changed'>): Promise<void> {
  const d = e.data;
  if (!isTeamRole(d.role)) return;
  await upsertTeamMember(tx, {
    userId: d.userId,
    role: d.role,
    isActive: d.isActive,
    email: d.email,
    name: d.name || d.email,
    changedAt: new Date(e.occurredAt),
  });
}

export async function applyStaffJoined(tx: DbOrTx, e: EventOf<'identity.staff_joined'>): Promise<void> {
  const d = e.data;
  if (!isTeamRole(d.role)) return;
  await insertTeamMemberIfAbsent(tx, {
    userId: d.userId,
    role: d.role,
    isActive: true,
    email: d.email,
    name: d.email,
    changedAt: new Date(e.occurredAt),
  });
}
