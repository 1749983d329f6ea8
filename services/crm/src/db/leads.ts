import { londonDayStart, type DbOrTx } from '@countinghouse/kit';
import type { LeadListQuery } from '@countinghouse/proto';
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { containsPattern } from '../domain/clients.js';
import type { LeadRow } from './queries.js';
import { leads, leadTotals } from './schema.js';

/** Search on name, e-mail and company name (trigram indexes). */
export function leadSearch(text: string): SQL {
  const p = containsPattern(text);
  return sql`(${leads.name} ilike ${p} or ${leads.email} ilike ${p} or ${leads.companyName} ilike ${p})`;
}

/** One page of leads and their total, newest first. The SQL is tuned with indexes at 200k rows (docs/perf/crm-plans.md). */
export async function listLeads(
  db: DbOrTx,
  q: LeadListQuery,
  page: { limit: number; offset: number },
): Promise<{ rows: LeadRow[]; total: number }> {
  const conds: SQL[] = [];
  if (q.stage) conds.push(eq(leads.stage, q.stage));
  if (q.source) conds.push(eq(leads.source, q.source));
  if (q.created_from) conds.push(gte(leads.createdAt, londonDayStart(q.created_from)));
  if (q.created_to) conds.push(lt(leads.createdAt, londonDayStart(q.created_to, 1)));
  const search = q.search?.trim();
  if (search) conds.push(leadSearch(search));
  const where = conds.length ? and(...conds) : undefined;
  const { limit, offset } = page;
  const fromCounters = conds.length === 0 || (conds.length === 1 && q.stage);
  const totalQuery = fromCounters
    ? db
        .select({ n: sql<number>`coalesce(sum(${leadTotals.leads}), 0)::int` })
        .from(leadTotals)
        .where(q.stage ? eq(leadTotals.stage, q.stage) : undefined)
    : db
        .select({ n: sql<number>`count(*)::int` })
        .from(leads)
        .where(where);
  const [rows, total] = await Promise.all([
    db.select().from(leads).where(where).orderBy(desc(leads.createdAt), desc(leads.id)).limit(limit).offset(offset),
    totalQuery,
  ]);
  return { rows, total: total[0]?.n ?? 0 };
}

export async function findLead(db: DbOrTx, id: string): Promise<LeadRow | null> {
  const [row] = await db.select().from(leads).where(eq(leads.id, id));
  return row ?? null;
}

/** A lead locked for the caller's transaction, or null. */
export async function lockLead(tx: DbOrTx, id: string): Promise<LeadRow | null> {
  const [row] = await tx.select().from(leads).where(eq(leads.id, id)).for('update');
  return row ?? null;
}

export async function insertLead(db: DbOrTx, values: typeof leads.$inferInsert): Promise<LeadRow> {
  const [row] = await db.insert(leads).values(values).returning();
  return row!;
}

export async function updateLead(tx: DbOrTx, id: string, set: Partial<typeof leads.$inferInsert>): Promise<LeadRow> {
  const [row] = await tx.update(leads).set(set).where(eq(leads.id, id)).returning();
  return row!;
}
