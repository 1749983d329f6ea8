import type { Db } from '@countinghouse/kit';
import { eq, sql } from 'drizzle-orm';
import { adminUsers } from './schema.js';

export async function findAdminByUsername(db: Db, username: string) {
  const rows = await db
    .select()
    .from(adminUsers)
    .where(sql`lower(${adminUsers.username}) = lower(${username})`)
    .limit(1);
  return rows[0] ?? null;
}

export async function findAdminById(db: Db, id: string) {
  const rows = await db.select().from(adminUsers).where(eq(adminUsers.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function countAdmins(db: Db): Promise<number> {
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(adminUsers);
  return rows[0]?.n ?? 0;
}
