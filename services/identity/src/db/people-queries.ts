import type { Db } from '@countinghouse/kit';
import type { Role } from '@countinghouse/proto';
import { and, eq, sql } from 'drizzle-orm';
import { profiles, userRoles, users } from './schema.js';

type Exec = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

export async function findUserByEmail(db: Exec, email: string) {
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return rows[0] ?? null;
}

export async function findProfile(db: Exec, userId: string) {
  const rows = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return rows[0] ?? null;
}

export async function activeRoles(db: Exec, userId: string): Promise<Role[]> {
  const rows = await db
    .select({ role: userRoles.role })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), eq(userRoles.isActive, true)));
  return rows.map((r) => r.role as Role);
}

/** Grant a role, or re-activate a revoked grant. */
export async function grantRole(db: Exec, userId: string, role: Role, grantedBy: string | null) {
  await db
    .insert(userRoles)
    .values({ userId, role, isActive: true, grantedBy })
    .onConflictDoUpdate({
      target: [userRoles.userId, userRoles.role],
      set: { isActive: true, grantedAt: sql`now()`, grantedBy, revokedAt: null },
    });
}
