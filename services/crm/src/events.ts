import { idempotent, type Db, type Runtime } from '@countinghouse/kit';
import { TEAM_MEMBER_ROLES, TOPICS, type EventData, type EventEnvelope } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { SCHEMA, teamMembers } from './db/schema.js';

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
 * - billing's subscription events (issue 6): subscribe to TOPICS.billing here and call
 *   `upsertClientFromSubscription` (db/client-upsert.ts) from the handler; it upserts the client keyed
 *   on user_id and publishes crm.client_upserted in the same transaction.
 */
export async function subscribeCrmConsumers(runtime: Runtime): Promise<void> {
  const db = runtime.db;
  await runtime.bus.subscribe({
    group: 'crm.team-members',
    topics: [TOPICS.identity],
    handler: idempotent(db, SCHEMA, 'crm.team-members', async (envelope, tx) => {
      if (envelope.type === 'identity.role_changed')
        await applyRoleChanged(tx, envelope as EventEnvelope<EventData<'identity.role_changed'>>);
      else if (envelope.type === 'identity.staff_joined')
        await applyStaffJoined(tx, envelope as EventEnvelope<EventData<'identity.staff_joined'>>);
    }),
  });
}

const isTeamRole = (role: string) => (TEAM_MEMBER_ROLES as readonly string[]).includes(role);

export async function applyRoleChanged(tx: Db, e: EventEnvelope<EventData<'identity.role_changed'>>): Promise<void> {
  const d = e.data;
  if (!isTeamRole(d.role)) return;
  const at = new Date(e.occurredAt);
  await tx
    .insert(teamMembers)
    .values({ userId: d.userId, role: d.role, isActive: d.isActive, email: d.email, name: d.name || d.email, changedAt: at })
    .onConflictDoUpdate({
      target: [teamMembers.userId, teamMembers.role],
      set: { isActive: d.isActive, email: d.email, name: d.name || d.email, changedAt: at },
      setWhere: sql`${teamMembers.changedAt} <= excluded.changed_at`,
    });
}

export async function applyStaffJoined(tx: Db, e: EventEnvelope<EventData<'identity.staff_joined'>>): Promise<void> {
  const d = e.data;
  if (!isTeamRole(d.role)) return;
  await tx
    .insert(teamMembers)
    .values({ userId: d.userId, role: d.role, isActive: true, email: d.email, name: d.email, changedAt: new Date(e.occurredAt) })
    .onConflictDoNothing();
}
