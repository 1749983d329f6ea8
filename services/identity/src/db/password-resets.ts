import type { DbOrTx } from '@countinghouse/kit';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { adminUsers, passwordResets, users } from './schema.js';

/** Serialise one account's reset requests (inside the caller's transaction), so the per-window count cannot be raced past. */
export async function lockResetRequests(tx: DbOrTx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('identity.password_resets'), hashtext(${userId}))`);
}

/** How many reset links the account was sent in the last `minutes`. */
export async function countRecentResets(tx: DbOrTx, userId: string, minutes: number): Promise<number> {
  const recent = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(passwordResets)
    .where(and(eq(passwordResets.userId, userId), gt(passwordResets.createdAt, sql`now() - make_interval(mins => ${minutes})`)));
  return recent[0]?.n ?? 0;
}

/** Spend every outstanding link of the account (a new one replaces them). */
export async function spendOutstandingResets(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

export async function insertReset(tx: DbOrTx, r: { userId: string; tokenHash: string; expiresAt: Date; requestedIp: string | null }) {
  await tx.insert(passwordResets).values(r);
}

/** The unspent, unexpired reset with this token hash, or null. */
export async function findLiveReset(db: DbOrTx, tokenHash: string) {
  const rows = await db
    .select()
    .from(passwordResets)
    .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)))
    .limit(1);
  return rows[0] ?? null;
}

/** Spend this reset if it is still live; false when another submission spent it first (or it expired). */
export async function spendReset(tx: DbOrTx, id: string): Promise<boolean> {
  const spent = await tx
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.id, id), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)))
    .returning({ userId: passwordResets.userId });
  return spent.length > 0;
}

/** Spend the account's other outstanding links. */
export async function spendOtherResets(tx: DbOrTx, userId: string, keptId: string): Promise<void> {
  await tx
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt), ne(passwordResets.id, keptId)));
}

/** Set a person's password hash; the e-mail of the account, or null when there is none. */
export async function setUserPassword(tx: DbOrTx, userId: string, passwordHash: string): Promise<{ email: string } | null> {
  const [user] = await tx.update(users).set({ passwordHash }).where(eq(users.id, userId)).returning({ email: users.email });
  return user ?? null;
}

/** Replace a person's password only if it is still `currentHash`: two changes at once cannot both pass. */
export async function replaceUserPassword(tx: DbOrTx, userId: string, currentHash: string, passwordHash: string): Promise<boolean> {
  const done = await tx
    .update(users)
    .set({ passwordHash })
    .where(and(eq(users.id, userId), eq(users.passwordHash, currentHash)))
    .returning({ id: users.id });
  return done.length > 0;
}

/** The same for an active admin panel account. */
export async function replaceAdminPassword(tx: DbOrTx, adminId: string, currentHash: string, passwordHash: string): Promise<boolean> {
  const done = await tx
    .update(adminUsers)
    .set({ passwordHash })
    .where(and(eq(adminUsers.id, adminId), eq(adminUsers.passwordHash, currentHash), eq(adminUsers.isActive, true)))
    .returning({ id: adminUsers.id });
  return done.length > 0;
}
