import type { Db } from '@countinghouse/kit';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { adminSessions, adminUsers } from './schema.js';

export async function findAdminByUsername(db: Db, username: string) {
  const rows = await db
    .select()
    .from(adminUsers)
    .where(sql`lower(${adminUsers.username}) = lower(${username})`)
    .limit(1);
  return rows[0] ?? null;
}

export async function countAdmins(db: Db): Promise<number> {
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(adminUsers);
  return rows[0]?.n ?? 0;
}

/** A live session with its admin, or null when revoked, expired or the admin was deactivated. */
export async function findLiveSession(db: Db, sessionId: string) {
  const rows = await db
    .select({ session: adminSessions, admin: adminUsers })
    .from(adminSessions)
    .innerJoin(adminUsers, eq(adminUsers.id, adminSessions.adminId))
    .where(
      and(
        eq(adminSessions.id, sessionId),
        isNull(adminSessions.revokedAt),
        gt(adminSessions.expiresAt, sql`now()`),
        eq(adminUsers.isActive, true),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

export async function findSessionByRefreshHash(db: Db, refreshHash: string) {
  const rows = await db
    .select({ session: adminSessions, admin: adminUsers })
    .from(adminSessions)
    .innerJoin(adminUsers, eq(adminUsers.id, adminSessions.adminId))
    .where(eq(adminSessions.refreshHash, refreshHash))
    .limit(1);
  return rows[0] ?? null;
}

export async function findSessionByPreviousHash(db: Db, refreshHash: string) {
  const rows = await db.select().from(adminSessions).where(eq(adminSessions.previousRefreshHash, refreshHash)).limit(1);
  return rows[0] ?? null;
}
