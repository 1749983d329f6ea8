import type { DbOrTx } from '@countinghouse/kit';
import type { Communication, CommunicationListQuery } from '@countinghouse/proto';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { containsPattern } from '../domain/clients.js';
import { toCommunication, type CommunicationRow } from './queries.js';
import { clients, communications } from './schema.js';

const selectWithCompany = (db: DbOrTx) =>
  db
    .select({ m: communications, company: clients.companyName })
    .from(communications)
    .innerJoin(clients, eq(clients.id, communications.clientId));

/** One page of communications and their total, newest first. */
export async function listCommunications(
  db: DbOrTx,
  q: CommunicationListQuery,
  page: { limit: number; offset: number },
): Promise<{ communications: Communication[]; total: number }> {
  const conds: SQL[] = [];
  if (q.client_id) conds.push(eq(communications.clientId, q.client_id));
  if (q.channel) conds.push(eq(communications.channel, q.channel));
  if (q.direction) conds.push(eq(communications.direction, q.direction));
  if (q.search?.trim()) conds.push(sql`${communications.subject} ilike ${containsPattern(q.search)}`);
  const where = conds.length ? and(...conds) : undefined;
  const { limit, offset } = page;
  const [rows, total] = await Promise.all([
    selectWithCompany(db).where(where).orderBy(desc(communications.occurredAt), desc(communications.id)).limit(limit).offset(offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(communications)
      .where(where),
  ]);
  return { communications: rows.map((r) => toCommunication(r.m, r.company)), total: total[0]?.n ?? 0 };
}

/** One communication with its client's name, or null. */
export async function findCommunication(db: DbOrTx, id: string): Promise<Communication | null> {
  const [r] = await selectWithCompany(db).where(eq(communications.id, id));
  return r ? toCommunication(r.m, r.company) : null;
}

export async function insertCommunication(db: DbOrTx, values: typeof communications.$inferInsert): Promise<CommunicationRow> {
  const [row] = await db.insert(communications).values(values).returning();
  return row!;
}
