// Queries of the practice's ACSP identity verification records and settings (issue #30).
import { and, asc, eq } from 'drizzle-orm';
import type { Exec } from './queries.js';
import { acspSettings, identityVerifications } from './schema.js';

export type AcspRecordRow = typeof identityVerifications.$inferSelect;
export type AcspSettingsRow = typeof acspSettings.$inferSelect;

export async function listAcspRecords(db: Exec, clientId: string): Promise<AcspRecordRow[]> {
  return db
    .select()
    .from(identityVerifications)
    .where(eq(identityVerifications.clientId, clientId))
    .orderBy(asc(identityVerifications.verifiedOn), asc(identityVerifications.recordedAt));
}

export async function insertAcspRecord(db: Exec, values: typeof identityVerifications.$inferInsert): Promise<AcspRecordRow> {
  const [made] = await db.insert(identityVerifications).values(values).returning();
  return made!;
}

export async function lockAcspRecord(db: Exec, clientId: string, id: string): Promise<AcspRecordRow | null> {
  const [row] = await db
    .select()
    .from(identityVerifications)
    .where(and(eq(identityVerifications.clientId, clientId), eq(identityVerifications.id, id)))
    .for('update');
  return row ?? null;
}

export async function deleteAcspRecord(db: Exec, id: string): Promise<void> {
  await db.delete(identityVerifications).where(eq(identityVerifications.id, id));
}

export async function readAcspSettings(db: Exec): Promise<AcspSettingsRow | null> {
  const [row] = await db.select().from(acspSettings).where(eq(acspSettings.id, 1));
  return row ?? null;
}

export async function writeAcspSettings(
  db: Exec,
  v: { acspNumber: string; amlSupervisor: string; updatedByName: string },
): Promise<AcspSettingsRow> {
  const updatedAt = new Date();
  const [row] = await db
    .insert(acspSettings)
    .values({ id: 1, ...v, updatedAt })
    .onConflictDoUpdate({ target: acspSettings.id, set: { ...v, updatedAt } })
    .returning();
  return row!;
}
