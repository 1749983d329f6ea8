import { enqueueEvent, type Db } from '@countinghouse/kit';
import type { Actor, Client, ClientUpgrade, Communication, Lead, Task } from '@countinghouse/proto';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@countinghouse/kit';
import { feeForPackage } from '../domain/clients.js';
import { clients, clientUpgrades, communications, leads, SCHEMA, tasks, teamMembers } from './schema.js';

export type ClientRow = typeof clients.$inferSelect;
export type LeadRow = typeof leads.$inferSelect;
export type TaskRow = typeof tasks.$inferSelect;
export type UpgradeRow = typeof clientUpgrades.$inferSelect;
export type CommunicationRow = typeof communications.$inferSelect;

/** The current name of a team member (any of their role rows; the newest wins). */
export function memberName(userIdColumn: SQL | typeof clients.assignedAccountantId | typeof tasks.assigneeId) {
  return sql<string | null>`(select tm.name from ${teamMembers} tm where tm.user_id = ${userIdColumn} order by tm.changed_at desc limit 1)`;
}

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

export function toClient(r: ClientRow, accountantName: string | null): Client {
  return {
    id: r.id,
    user_id: r.userId,
    company_name: r.companyName,
    contact_name: r.contactName,
    contact_email: r.contactEmail,
    contact_phone: r.contactPhone,
    business_type: r.businessType,
    package_name: r.packageName,
    monthly_fee: Number(r.monthlyFee),
    subscription_status: r.subscriptionStatus,
    next_billing_date: r.nextBillingDate,
    registration_date: iso(r.registrationDate),
    onboarding_completed: r.onboardingCompleted,
    employees_count: r.employeesCount,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
    assigned_accountant_id: r.assignedAccountantId,
    assigned_accountant_name: r.assignedAccountantId ? accountantName : null,
  };
}

export function toLead(r: LeadRow): Lead {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    company_name: r.companyName,
    stage: r.stage,
    business_type: r.businessType ?? null,
    quote_amount: r.quoteAmount === null ? null : Number(r.quoteAmount),
    source: r.source,
    tags: r.tags,
    notes: r.notes,
    external_id: r.externalId,
    converted_client_id: r.convertedClientId,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}

export function toTask(r: TaskRow, clientCompanyName: string | null, assigneeName: string | null): Task {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    client_id: r.clientId,
    client_company_name: clientCompanyName,
    assignee_id: r.assigneeId,
    assignee_name: r.assigneeId ? assigneeName : null,
    due_date: r.dueDate,
    status: r.status,
    priority: r.priority,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
    completed_at: isoOrNull(r.completedAt),
    deadline_id: r.deadlineId,
  };
}

export function toUpgrade(r: UpgradeRow, clientCompanyName: string): ClientUpgrade {
  return {
    id: r.id,
    client_id: r.clientId,
    client_company_name: clientCompanyName,
    from_package: r.fromPackage,
    to_package: r.toPackage,
    from_monthly_fee: feeForPackage(r.fromPackage),
    to_monthly_fee: feeForPackage(r.toPackage),
    status: r.status,
    notes: r.notes,
    requested_at: iso(r.requestedAt),
    decided_at: isoOrNull(r.decidedAt),
  };
}

export function toCommunication(r: CommunicationRow, clientCompanyName: string): Communication {
  return {
    id: r.id,
    client_id: r.clientId,
    client_company_name: clientCompanyName,
    channel: r.channel,
    direction: r.direction,
    subject: r.subject,
    body: r.body,
    occurred_at: iso(r.occurredAt),
    created_at: iso(r.createdAt),
    created_by: r.createdBy,
  };
}

export async function getClient(db: Db, id: string): Promise<Client | null> {
  const rows = await db
    .select({ c: clients, accountantName: memberName(clients.assignedAccountantId) })
    .from(clients)
    .where(eq(clients.id, id));
  return rows[0] ? toClient(rows[0].c, rows[0].accountantName) : null;
}

export async function getClientByUserId(db: Db, userId: string): Promise<Client | null> {
  const rows = await db
    .select({ c: clients, accountantName: memberName(clients.assignedAccountantId) })
    .from(clients)
    .where(eq(clients.userId, userId));
  return rows[0] ? toClient(rows[0].c, rows[0].accountantName) : null;
}

/** Publish crm.client_upserted for a client, in the caller's transaction (the outbox). */
export async function publishClientUpserted(tx: Db, row: ClientRow, actor: Actor): Promise<void> {
  await enqueueEvent(
    tx,
    SCHEMA,
    'crm.client_upserted',
    {
      clientId: row.id,
      userId: row.userId,
      companyName: row.companyName,
      contactName: row.contactName,
      contactEmail: row.contactEmail,
      contactPhone: row.contactPhone,
      packageName: row.packageName,
      monthlyFee: Number(row.monthlyFee),
      subscriptionStatus: row.subscriptionStatus,
      assignedAccountantId: row.assignedAccountantId,
      businessType: row.businessType,
    },
    { actor, key: row.id },
  );
}

/** Is this user an active member of the team in one of these roles (read model)? */
export async function isActiveMember(db: Db, userId: string, roles: readonly string[]): Promise<boolean> {
  const rows = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(
      and(
        eq(teamMembers.userId, userId),
        eq(teamMembers.isActive, true),
        sql`${teamMembers.role} in (${sql.join(
          roles.map((r) => sql`${r}`),
          sql`, `,
        )})`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

// ---- read models and records kept from other services' events ----

/** A team member's role as identity last said it; an older event never overwrites a newer one. */
export async function upsertTeamMember(
  tx: DbOrTx,
  m: { userId: string; role: string; isActive: boolean; email: string; name: string; changedAt: Date },
): Promise<void> {
  await tx
    .insert(teamMembers)
    .values(m)
    .onConflictDoUpdate({
      target: [teamMembers.userId, teamMembers.role],
      set: { isActive: m.isActive, email: m.email, name: m.name, changedAt: m.changedAt },
      setWhere: sql`${teamMembers.changedAt} <= excluded.changed_at`,
    });
}

/** A team member row unless one exists (a later role change wins). */
export async function insertTeamMemberIfAbsent(
  tx: DbOrTx,
  m: { userId: string; role: string; isActive: boolean; email: string; name: string; changedAt: Date },
): Promise<void> {
  await tx.insert(teamMembers).values(m).onConflictDoNothing();
}

export async function insertUpgrade(tx: DbOrTx, row: typeof clientUpgrades.$inferInsert): Promise<void> {
  await tx.insert(clientUpgrades).values(row);
}

/** The client's id and accountant, or null. */
export async function findClientAccountant(db: DbOrTx, clientId: string): Promise<{ id: string; accountant: string | null } | null> {
  const [row] = await db.select({ id: clients.id, accountant: clients.assignedAccountantId }).from(clients).where(eq(clients.id, clientId));
  return row ?? null;
}

/** A task opened for a source key (one per key: a second insert opens nothing); true when it was opened. */
export async function insertTaskOnce(tx: DbOrTx, row: typeof tasks.$inferInsert): Promise<boolean> {
  const rows = await tx
    .insert(tasks)
    .values(row)
    .onConflictDoNothing({ target: tasks.sourceKey, where: sql`${tasks.sourceKey} is not null` })
    .returning({ id: tasks.id });
  return rows.length > 0;
}
