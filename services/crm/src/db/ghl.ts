import type { DbOrTx } from '@countinghouse/kit';
import { eq, inArray, or, sql } from 'drizzle-orm';
import type { LeadRow } from './queries.js';
import { ghlSync, leads } from './schema.js';

/** One import at a time: held until the caller's transaction ends. */
export async function lockGhlImport(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('crm-ghl-import'))`);
}

/** Leads with one of these external ids, or one of these e-mail addresses (lower case). */
export async function leadsMatching(tx: DbOrTx, ids: string[], emails: string[]): Promise<LeadRow[]> {
  return tx
    .select()
    .from(leads)
    .where(
      emails.length
        ? or(inArray(leads.externalId, ids.length ? ids : ['']), inArray(sql`lower(${leads.email})`, emails))
        : inArray(leads.externalId, ids.length ? ids : ['']),
    );
}

/** The import's bookkeeping after a successful run: when, how many, no error. */
export async function recordGhlImport(tx: DbOrTx, total: number): Promise<void> {
  await tx
    .insert(ghlSync)
    .values({ id: 1, lastImportAt: new Date(), lastImportTotal: total, lastError: null })
    .onConflictDoUpdate({ target: ghlSync.id, set: { lastImportAt: new Date(), lastImportTotal: total, lastError: null } });
}

/** Why the last import failed. */
export async function recordGhlError(db: DbOrTx, reason: string): Promise<void> {
  await db
    .insert(ghlSync)
    .values({ id: 1, lastError: reason })
    .onConflictDoUpdate({ target: ghlSync.id, set: { lastError: reason } });
}

export async function readGhlSync(db: DbOrTx) {
  const [s] = await db.select().from(ghlSync).where(eq(ghlSync.id, 1));
  return s ?? null;
}
