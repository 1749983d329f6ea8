import type { DbOrTx } from '@countinghouse/kit';
import type { Invitation, Role } from '@countinghouse/proto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { isInvitableRole } from '../domain/roles.js';
import { adminUsers, staffInvitations, userRoles } from './schema.js';

export type InvitationRow = typeof staffInvitations.$inferSelect;
type NewInvitation = typeof staffInvitations.$inferInsert;

/**
 * The inviter as they are now, their rows locked against a concurrent revoke until the acceptance
 * commits: an admin panel account (its role, whether active) or a person (their active grants).
 */
export async function inviterNow(tx: DbOrTx, inv: InvitationRow): Promise<{ isActive: boolean; roles: Role[] } | null> {
  if (!inv.invitedBy) return null;
  if (inv.invitedByKind === 'admin') {
    const res = await tx.execute<{ role: Role; is_active: boolean }>(
      sql`select role, is_active from ${adminUsers} where id = ${inv.invitedBy} for share`,
    );
    const a = res.rows[0];
    return a ? { isActive: Boolean(a.is_active), roles: [a.role] } : null;
  }
  const res = await tx.execute<{ role: Role }>(sql`select role from ${userRoles} where user_id = ${inv.invitedBy} and is_active for share`);
  const roles = res.rows.map((r) => r.role);
  return { isActive: roles.length > 0, roles };
}

/** The pending invitations of an e-mail (lower-cased), locked for the caller's transaction. */
export async function lockPendingInvitationsOf(tx: DbOrTx, email: string) {
  return tx
    .select({ role: staffInvitations.role, expiresAt: staffInvitations.expiresAt })
    .from(staffInvitations)
    .where(and(sql`lower(${staffInvitations.email}) = ${email}`, eq(staffInvitations.status, 'pending')))
    .for('update');
}

/** Cancel every pending invitation of an e-mail (lower-cased). */
export async function cancelPendingInvitationsOf(tx: DbOrTx, email: string): Promise<void> {
  await tx
    .update(staffInvitations)
    .set({ status: 'cancelled', cancelledAt: sql`now()` })
    .where(and(sql`lower(${staffInvitations.email}) = ${email}`, eq(staffInvitations.status, 'pending')));
}

export async function insertInvitation(tx: DbOrTx, values: NewInvitation): Promise<InvitationRow> {
  const [r] = await tx.insert(staffInvitations).values(values).returning();
  return r!;
}

/** Record how the e-mail with the link went. */
export async function setInvitationDelivery(db: DbOrTx, id: string, delivery: NonNullable<Invitation['delivery']>): Promise<InvitationRow> {
  const [updated] = await db.update(staffInvitations).set({ delivery }).where(eq(staffInvitations.id, id)).returning();
  return updated!;
}

export async function findInvitation(db: DbOrTx, id: string): Promise<InvitationRow | null> {
  const [r] = await db.select().from(staffInvitations).where(eq(staffInvitations.id, id)).limit(1);
  return r ?? null;
}

/** Invitations to these roles, newest first (at most 500). (Only an invitable role has invitations.) */
export async function listInvitations(db: DbOrTx, roles: readonly Role[]): Promise<InvitationRow[]> {
  return db
    .select()
    .from(staffInvitations)
    .where(inArray(staffInvitations.role, roles.filter(isInvitableRole)))
    .orderBy(desc(staffInvitations.createdAt))
    .limit(500);
}

/** A fresh link and term for a pending invitation; null when it is not pending. */
export async function renewInvitation(
  db: DbOrTx,
  id: string,
  values: Pick<NewInvitation, 'inviteTokenHash' | 'expiresAt' | 'invitedBy' | 'invitedByKind' | 'invitedByName'>,
): Promise<InvitationRow | null> {
  const [row] = await db
    .update(staffInvitations)
    .set({ ...values, delivery: null })
    .where(and(eq(staffInvitations.id, id), eq(staffInvitations.status, 'pending')))
    .returning();
  return row ?? null;
}

/** Cancel a pending, unexpired invitation; null when there is none such. */
export async function cancelInvitation(db: DbOrTx, id: string): Promise<InvitationRow | null> {
  const [r] = await db
    .update(staffInvitations)
    .set({ status: 'cancelled', cancelledAt: sql`now()` })
    .where(and(eq(staffInvitations.id, id), eq(staffInvitations.status, 'pending'), sql`${staffInvitations.expiresAt} > now()`))
    .returning();
  return r ?? null;
}

export async function findInvitationByTokenHash(db: DbOrTx, tokenHash: string): Promise<InvitationRow | null> {
  const rows = await db.select().from(staffInvitations).where(eq(staffInvitations.inviteTokenHash, tokenHash)).limit(1);
  return rows[0] ?? null;
}

/** The invitation of this token hash, locked: a token works once, even when two tabs submit together. */
export async function lockInvitationByTokenHash(tx: DbOrTx, tokenHash: string): Promise<InvitationRow | null> {
  const locked = await tx.execute(sql`select id from ${staffInvitations} where invite_token_hash = ${tokenHash} for update`);
  const id = locked.rows[0]?.id;
  if (typeof id !== 'string') return null;
  return (await tx.select().from(staffInvitations).where(eq(staffInvitations.id, id)))[0] ?? null;
}

export async function markInvitationAccepted(tx: DbOrTx, id: string, userId: string): Promise<void> {
  await tx
    .update(staffInvitations)
    .set({ status: 'accepted', acceptedAt: sql`now()`, acceptedUserId: userId })
    .where(eq(staffInvitations.id, id));
}
