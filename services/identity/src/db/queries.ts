import type { DbOrTx } from '@countinghouse/kit';
import type { Role } from '@countinghouse/proto';
import { and, eq, sql } from 'drizzle-orm';
import { adminUsers, profiles, userRoles, users } from './schema.js';

export async function findAdminByUsername(db: DbOrTx, username: string) {
  const rows = await db
    .select()
    .from(adminUsers)
    .where(sql`lower(${adminUsers.username}) = lower(${username})`)
    .limit(1);
  return rows[0] ?? null;
}

export async function findAdminById(db: DbOrTx, id: string) {
  const rows = await db.select().from(adminUsers).where(eq(adminUsers.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function countAdmins(db: DbOrTx): Promise<number> {
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(adminUsers);
  return rows[0]?.n ?? 0;
}

export async function findUserById(db: DbOrTx, id: string) {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function findUserByEmail(db: DbOrTx, email: string) {
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return rows[0] ?? null;
}

export async function findProfile(db: DbOrTx, userId: string) {
  const rows = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return rows[0] ?? null;
}

export async function activeRoles(db: DbOrTx, userId: string): Promise<Role[]> {
  const rows = await db
    .select({ role: userRoles.role })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), eq(userRoles.isActive, true)));
  return rows.map((r) => r.role as Role);
}

/** Grant a role, or re-activate a revoked grant. */
export async function grantRole(db: DbOrTx, userId: string, role: Role, grantedBy: string | null) {
  await db
    .insert(userRoles)
    .values({ userId, role, isActive: true, grantedBy })
    .onConflictDoUpdate({
      target: [userRoles.userId, userRoles.role],
      set: { isActive: true, grantedAt: sql`now()`, grantedBy, revokedAt: null },
    });
}

export interface Purged {
  adminSessions: number;
  userSessions: number;
  processedEvents: number;
  outbox: number;
}

/**
 * Delete what identity no longer needs, older than the cut-off: sign-in sessions that expired or were
 * revoked (they hold an IP address and browser: personal data, UK GDPR Art. 5(1)(e) storage
 * limitation), processed-event ids (redelivery only happens within the bus's retention, days) and
 * outbox rows already published. One transaction: all or nothing.
 */
export async function purgeExpired(db: DbOrTx, cutOff: Date): Promise<Purged> {
  return db.transaction(async (tx) => {
    const count = async (q: ReturnType<typeof sql>) => (await tx.execute(q)).rowCount ?? 0;
    const iso = cutOff.toISOString();
    return {
      adminSessions: await count(
        sql`delete from identity.admin_sessions where expires_at < ${iso}::timestamptz or revoked_at < ${iso}::timestamptz`,
      ),
      userSessions: await count(
        sql`delete from identity.user_sessions where expires_at < ${iso}::timestamptz or revoked_at < ${iso}::timestamptz`,
      ),
      processedEvents: await count(sql`delete from identity.processed_events where processed_at < ${iso}::timestamptz`),
      outbox: await count(sql`delete from identity.outbox where published_at < ${iso}::timestamptz`),
    };
  });
}
