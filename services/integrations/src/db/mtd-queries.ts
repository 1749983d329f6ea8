import type { DbOrTx } from '@countinghouse/kit';
import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import {
  clientDirectory,
  hmrcCalls,
  hmrcConnection,
  mtdAuthorisations,
  mtdBusinesses,
  mtdCalculations,
  mtdClients,
  mtdFinalDeclarations,
  mtdLedgerMappings,
  mtdObligations,
  mtdQualifyingIncome,
  mtdSubmissions,
  oauthStates,
} from './schema.js';

// Every MTD query (issue 31), each taking DbOrTx so it runs alone or in the caller's transaction.

export const PRACTICE = 'practice';
export type HmrcConnectionRow = typeof hmrcConnection.$inferSelect;
export type MtdClientRow = typeof mtdClients.$inferSelect;
export type MtdAuthorisationRow = typeof mtdAuthorisations.$inferSelect;
export type MtdObligationRow = typeof mtdObligations.$inferSelect;
export type MtdSubmissionRow = typeof mtdSubmissions.$inferSelect;
export type MtdLedgerMappingRow = typeof mtdLedgerMappings.$inferSelect;

export async function findConnection(db: DbOrTx): Promise<HmrcConnectionRow | null> {
  const [row] = await db.select().from(hmrcConnection).where(eq(hmrcConnection.id, PRACTICE));
  return row ?? null;
}

export async function lockConnection(db: DbOrTx): Promise<HmrcConnectionRow | null> {
  const [row] = await db.select().from(hmrcConnection).where(eq(hmrcConnection.id, PRACTICE)).for('update');
  return row ?? null;
}

export async function saveConnection(db: DbOrTx, patch: Partial<Omit<HmrcConnectionRow, 'id'>>): Promise<void> {
  await db
    .insert(hmrcConnection)
    .values({ id: PRACTICE, ...patch, updatedAt: new Date() })
    .onConflictDoUpdate({ target: hmrcConnection.id, set: { ...patch, updatedAt: new Date() } });
}

export async function recordHmrcCall(db: DbOrTx, r: typeof hmrcCalls.$inferInsert): Promise<void> {
  await db.insert(hmrcCalls).values(r);
}

export async function listHmrcCalls(db: DbOrTx, limit = 200) {
  return db.select().from(hmrcCalls).orderBy(desc(hmrcCalls.id)).limit(limit);
}

export async function findMtdClient(db: DbOrTx, clientId: string): Promise<MtdClientRow | null> {
  const [row] = await db.select().from(mtdClients).where(eq(mtdClients.clientId, clientId));
  return row ?? null;
}

export async function saveMtdClient(db: DbOrTx, clientId: string, patch: Partial<Omit<MtdClientRow, 'clientId'>>): Promise<void> {
  await db
    .insert(mtdClients)
    .values({ clientId, ...patch, updatedAt: new Date() })
    .onConflictDoUpdate({ target: mtdClients.clientId, set: { ...patch, updatedAt: new Date() } });
}

export async function listMtdClients(db: DbOrTx): Promise<MtdClientRow[]> {
  return db.select().from(mtdClients);
}

export async function insertIncome(db: DbOrTx, row: typeof mtdQualifyingIncome.$inferInsert): Promise<void> {
  await db.insert(mtdQualifyingIncome).values(row);
}

/** Every recorded income row, oldest first (the latest of a client's year wins). */
export async function listIncomes(db: DbOrTx, clientIds?: string[]) {
  const q = db.select().from(mtdQualifyingIncome);
  const rows = clientIds ? await q.where(inArray(mtdQualifyingIncome.clientId, clientIds)) : await q;
  return rows.sort((a, b) => a.recordedAt.getTime() - b.recordedAt.getTime());
}

export async function insertAuthorisation(db: DbOrTx, row: typeof mtdAuthorisations.$inferInsert): Promise<MtdAuthorisationRow> {
  const [r] = await db.insert(mtdAuthorisations).values(row).returning();
  return r!;
}

export async function findAuthorisation(db: DbOrTx, clientId: string, id: string): Promise<MtdAuthorisationRow | null> {
  const [r] = await db
    .select()
    .from(mtdAuthorisations)
    .where(and(eq(mtdAuthorisations.clientId, clientId), eq(mtdAuthorisations.id, id)));
  return r ?? null;
}

export async function latestAuthorisation(db: DbOrTx, clientId: string): Promise<MtdAuthorisationRow | null> {
  const [r] = await db
    .select()
    .from(mtdAuthorisations)
    .where(eq(mtdAuthorisations.clientId, clientId))
    .orderBy(desc(mtdAuthorisations.requestedAt))
    .limit(1);
  return r ?? null;
}

export async function listAuthorisations(db: DbOrTx): Promise<MtdAuthorisationRow[]> {
  return db.select().from(mtdAuthorisations).orderBy(asc(mtdAuthorisations.requestedAt));
}

export async function updateAuthorisation(
  db: DbOrTx,
  id: string,
  patch: Partial<Pick<MtdAuthorisationRow, 'status' | 'clientActionUrl' | 'checkedAt' | 'expiresOn'>>,
): Promise<MtdAuthorisationRow> {
  const [r] = await db.update(mtdAuthorisations).set(patch).where(eq(mtdAuthorisations.id, id)).returning();
  return r!;
}

export async function replaceBusinesses(db: DbOrTx, clientId: string, rows: Array<typeof mtdBusinesses.$inferInsert>): Promise<void> {
  await db.delete(mtdBusinesses).where(eq(mtdBusinesses.clientId, clientId));
  if (rows.length) await db.insert(mtdBusinesses).values(rows);
}

export async function listBusinesses(db: DbOrTx, clientId: string) {
  return db.select().from(mtdBusinesses).where(eq(mtdBusinesses.clientId, clientId)).orderBy(asc(mtdBusinesses.businessId));
}

export async function replaceObligations(db: DbOrTx, clientId: string, rows: Array<typeof mtdObligations.$inferInsert>): Promise<void> {
  await db.delete(mtdObligations).where(eq(mtdObligations.clientId, clientId));
  if (rows.length) await db.insert(mtdObligations).values(rows);
}

export async function listObligations(db: DbOrTx, clientId?: string): Promise<MtdObligationRow[]> {
  const q = db.select().from(mtdObligations);
  const rows = clientId ? await q.where(eq(mtdObligations.clientId, clientId)) : await q;
  return rows.sort((a, b) => a.dueDate.localeCompare(b.dueDate) || (a.businessId ?? '').localeCompare(b.businessId ?? ''));
}

export async function insertSubmission(db: DbOrTx, row: typeof mtdSubmissions.$inferInsert): Promise<MtdSubmissionRow> {
  const [r] = await db.insert(mtdSubmissions).values(row).returning();
  return r!;
}

export async function insertCalculation(db: DbOrTx, row: typeof mtdCalculations.$inferInsert): Promise<void> {
  await db.insert(mtdCalculations).values(row).onConflictDoNothing();
}

export async function listSubmissions(db: DbOrTx, clientId: string) {
  const subs = await db
    .select()
    .from(mtdSubmissions)
    .where(eq(mtdSubmissions.clientId, clientId))
    .orderBy(desc(mtdSubmissions.submittedAt));
  const calcs = await db.select().from(mtdCalculations).where(eq(mtdCalculations.clientId, clientId));
  return subs.map((s) => ({ ...s, calculationId: calcs.find((c) => c.submissionId === s.id)?.calculationId ?? null }));
}

/** Clients (from the directory) with an NINO and an accepted authorisation: the daily refresh's list. */
export async function listDirectory(db: DbOrTx) {
  return db.select().from(clientDirectory);
}

/** Spend an HMRC connection's OAuth state: single use, unexpired; null when it is not one. */
export async function spendHmrcState(db: DbOrTx, stateHash: string) {
  const [st] = await db
    .update(oauthStates)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(oauthStates.stateHash, stateHash),
        eq(oauthStates.provider, 'hmrc'),
        isNull(oauthStates.usedAt),
        gt(oauthStates.expiresAt, sql`now()`),
      ),
    )
    .returning();
  return st ?? null;
}

// ---- ledger category mapping (item 6) ----

export async function listLedgerMappings(db: DbOrTx, clientId: string): Promise<MtdLedgerMappingRow[]> {
  return db.select().from(mtdLedgerMappings).where(eq(mtdLedgerMappings.clientId, clientId));
}

/** Sets each account's category (one statement; the latest choice wins). */
export async function saveLedgerMappings(
  db: DbOrTx,
  clientId: string,
  rows: Array<{ accountKey: string; accountName: string; category: MtdLedgerMappingRow['category'] }>,
  updatedBy: string,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(mtdLedgerMappings)
    .values(rows.map((r) => ({ clientId, ...r, updatedBy })))
    .onConflictDoUpdate({
      target: [mtdLedgerMappings.clientId, mtdLedgerMappings.accountKey],
      set: {
        accountName: sql`excluded.account_name`,
        category: sql`excluded.category`,
        updatedBy: sql`excluded.updated_by`,
        updatedAt: sql`now()`,
      },
    });
}

// ---- final declaration ----

export async function findCalculation(db: DbOrTx, clientId: string, calculationId: string) {
  const [row] = await db
    .select()
    .from(mtdCalculations)
    .where(and(eq(mtdCalculations.clientId, clientId), eq(mtdCalculations.calculationId, calculationId)));
  return row ?? null;
}

export async function insertFinalDeclaration(db: DbOrTx, row: typeof mtdFinalDeclarations.$inferInsert) {
  const [made] = await db.insert(mtdFinalDeclarations).values(row).returning();
  return made!;
}

export async function listFinalDeclarations(db: DbOrTx, clientId: string) {
  return db
    .select()
    .from(mtdFinalDeclarations)
    .where(eq(mtdFinalDeclarations.clientId, clientId))
    .orderBy(desc(mtdFinalDeclarations.submittedAt));
}
