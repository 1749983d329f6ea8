import type { DbOrTx } from '@countinghouse/kit';
import type { ClientUpgrade, UpgradeListQuery } from '@countinghouse/proto';
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { toUpgrade, type UpgradeRow } from './queries.js';
import { clients, clientUpgrades } from './schema.js';

/** One page of upgrade requests and their total, newest first. */
export async function listUpgrades(
  db: DbOrTx,
  q: UpgradeListQuery,
  page: { limit: number; offset: number },
): Promise<{ upgrades: ClientUpgrade[]; total: number }> {
  const conds: SQL[] = [];
  if (q.status) conds.push(eq(clientUpgrades.status, q.status));
  if (q.client_id) conds.push(eq(clientUpgrades.clientId, q.client_id));
  const where = conds.length ? and(...conds) : undefined;
  const { limit, offset } = page;
  const [rows, total] = await Promise.all([
    db
      .select({ u: clientUpgrades, company: clients.companyName })
      .from(clientUpgrades)
      .innerJoin(clients, eq(clients.id, clientUpgrades.clientId))
      .where(where)
      .orderBy(desc(clientUpgrades.requestedAt), desc(clientUpgrades.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(clientUpgrades)
      .where(where),
  ]);
  return { upgrades: rows.map((r) => toUpgrade(r.u, r.company)), total: total[0]?.n ?? 0 };
}

/** One upgrade with its client's name, or null. */
export async function loadUpgrade(db: DbOrTx, id: string): Promise<ClientUpgrade | null> {
  const rows = await db
    .select({ u: clientUpgrades, company: clients.companyName })
    .from(clientUpgrades)
    .innerJoin(clients, eq(clients.id, clientUpgrades.clientId))
    .where(eq(clientUpgrades.id, id));
  return rows[0] ? toUpgrade(rows[0].u, rows[0].company) : null;
}

/** Does the client have an upgrade pending or approved? */
export async function hasOpenUpgrade(tx: DbOrTx, clientId: string): Promise<boolean> {
  const open = await tx
    .select({ id: clientUpgrades.id })
    .from(clientUpgrades)
    .where(and(eq(clientUpgrades.clientId, clientId), inArray(clientUpgrades.status, ['pending', 'approved'])));
  return open.length > 0;
}

/** A new upgrade request's id. */
export async function insertUpgradeRequest(tx: DbOrTx, values: typeof clientUpgrades.$inferInsert): Promise<string> {
  const [row] = await tx.insert(clientUpgrades).values(values).returning({ id: clientUpgrades.id });
  return row!.id;
}

/** An upgrade locked for the caller's transaction, or null. */
export async function lockUpgrade(tx: DbOrTx, id: string): Promise<UpgradeRow | null> {
  const [row] = await tx.select().from(clientUpgrades).where(eq(clientUpgrades.id, id)).for('update');
  return row ?? null;
}

export async function updateUpgrade(tx: DbOrTx, id: string, set: Partial<typeof clientUpgrades.$inferInsert>): Promise<void> {
  await tx.update(clientUpgrades).set(set).where(eq(clientUpgrades.id, id));
}
