import { londonDayStart, type DbOrTx } from '@countinghouse/kit';
import type { ClientListQuery } from '@countinghouse/proto';
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { CrmScope } from '../domain/access.js';
import { containsPattern, packageForFilter } from '../domain/clients.js';
import { memberName, type ClientRow } from './queries.js';
import { clients, clientTotals } from './schema.js';

/** Search on company name, contact e-mail and contact name (trigram indexes). */
export function clientSearch(text: string): SQL {
  const p = containsPattern(text);
  return sql`(${clients.companyName} ilike ${p} or ${clients.contactEmail} ilike ${p} or ${clients.contactName} ilike ${p})`;
}

/**
 * One page of the client list and its total, newest first (an accountant's scope keeps their own
 * clients). The SQL is tuned with indexes at 200k rows (docs/perf/crm-plans.md).
 */
export async function listClients(
  db: DbOrTx,
  s: CrmScope,
  q: ClientListQuery,
  page: { limit: number; offset: number },
): Promise<{ rows: { c: ClientRow; accountantName: string | null }[]; total: number }> {
  const conds: SQL[] = [];
  if (s.kind === 'accountant') conds.push(eq(clients.assignedAccountantId, s.userId));
  if (q.assigned_accountant_id) conds.push(eq(clients.assignedAccountantId, q.assigned_accountant_id));
  if (q.status) conds.push(eq(clients.subscriptionStatus, q.status));
  if (q.package) conds.push(eq(clients.packageName, packageForFilter(q.package)));
  if (q.registered_from) conds.push(gte(clients.registrationDate, londonDayStart(q.registered_from)));
  if (q.registered_to) conds.push(lt(clients.registrationDate, londonDayStart(q.registered_to, 1)));
  const search = q.search?.trim();
  if (search) conds.push(clientSearch(search));
  const where = conds.length ? and(...conds) : undefined;
  const sortCol = q.sort === 'registration_date' ? clients.registrationDate : clients.createdAt;
  const { limit, offset } = page;

  // Without a filter (or with the status filter alone) the exact total comes from the counters.
  const onlyStatus = conds.length === 1 && q.status && s.kind !== 'accountant';
  const totalQuery =
    conds.length === 0
      ? db.select({ n: sql<number>`coalesce(sum(${clientTotals.clients}), 0)::int` }).from(clientTotals)
      : onlyStatus
        ? db
            .select({ n: sql<number>`coalesce(sum(${clientTotals.clients}), 0)::int` })
            .from(clientTotals)
            .where(eq(clientTotals.subscriptionStatus, q.status!))
        : db
            .select({ n: sql<number>`count(*)::int` })
            .from(clients)
            .where(where);
  const [rows, total] = await Promise.all([
    db
      .select({ c: clients, accountantName: memberName(clients.assignedAccountantId) })
      .from(clients)
      .where(where)
      .orderBy(desc(sortCol), desc(clients.id))
      .limit(limit)
      .offset(offset),
    totalQuery,
  ]);
  return { rows, total: total[0]?.n ?? 0 };
}

/** A client's row by their user id, locked for the caller's transaction. */
export async function lockClientByUserId(tx: DbOrTx, userId: string): Promise<ClientRow | null> {
  const [row] = await tx.select().from(clients).where(eq(clients.userId, userId)).for('update');
  return row ?? null;
}

/** A client's row by id, locked for the caller's transaction. */
export async function lockClient(tx: DbOrTx, id: string): Promise<ClientRow | null> {
  const [row] = await tx.select().from(clients).where(eq(clients.id, id)).for('update');
  return row ?? null;
}

export async function insertClient(tx: DbOrTx, values: typeof clients.$inferInsert): Promise<ClientRow> {
  const [row] = await tx.insert(clients).values(values).returning();
  return row!;
}

/** The changed client, or null when there is none with this id. */
export async function updateClient(tx: DbOrTx, id: string, set: Partial<typeof clients.$inferInsert>): Promise<ClientRow | null> {
  const [row] = await tx.update(clients).set(set).where(eq(clients.id, id)).returning();
  return row ?? null;
}

/** The client's company name, or null when there is no such client. */
export async function clientCompanyName(db: DbOrTx, id: string): Promise<string | null> {
  const [client] = await db.select({ company: clients.companyName }).from(clients).where(eq(clients.id, id));
  return client ? client.company : null;
}

export async function clientExists(db: DbOrTx, id: string): Promise<boolean> {
  const found = await db.select({ id: clients.id }).from(clients).where(eq(clients.id, id));
  return found.length > 0;
}
