import type { DbOrTx } from '@countinghouse/kit';
import type { RetentionRecordType } from '@countinghouse/proto';
import { and, asc, count, desc, eq, getTableColumns, gte, inArray, lt, notInArray, sql, type SQL } from 'drizzle-orm';
import { VIEW_EVENTS } from '../domain/summary.js';
import {
  acspVerifications,
  auditCheckpoints,
  auditEntries,
  clientRetention,
  fieldHashes,
  retentionAnswers,
  retentionReport,
  retentionRules,
  retentionRuns,
  sarFiles,
  sarRequests,
} from './schema.js';

export type AuditRow = typeof auditEntries.$inferSelect;
export type NewAuditRow = typeof auditEntries.$inferInsert;

/** Serialise appends to one chain (two events of one client at once must not take the same seq). */
export async function lockChain(tx: DbOrTx, chain: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'records-audit:' + chain}))`);
}

export async function lastOfChain(tx: DbOrTx, chain: string): Promise<{ seq: number; hash: string } | null> {
  const rows = await tx
    .select({ seq: auditEntries.seq, hash: auditEntries.hash })
    .from(auditEntries)
    .where(eq(auditEntries.chain, chain))
    .orderBy(desc(auditEntries.seq))
    .limit(1);
  return rows[0] ?? null;
}

/** The last removed entry of a chain whose beginning retention removed (null: nothing removed). */
export async function readCheckpoint(db: DbOrTx, chain: string): Promise<{ seq: number; hash: string } | null> {
  const rows = await db
    .select({ seq: auditCheckpoints.seq, hash: auditCheckpoints.hash })
    .from(auditCheckpoints)
    .where(eq(auditCheckpoints.chain, chain));
  return rows[0] ?? null;
}

/**
 * Remove a chain's entries that occurred before `before` (null: all), as a prefix: from the first entry
 * up to the last one before the first entry to keep, so the chain stays whole behind its checkpoint (an
 * entry that arrived late, older than one kept before it, stays until the next run reaches it). The
 * checkpoint moves to the last removed entry, in the same transaction. Returns the stretch removed.
 */
export async function eraseChainPrefix(
  tx: DbOrTx,
  chain: string,
  before: string | null,
  runId: string,
): Promise<{ from: number; to: number; count: number; hash: string } | null> {
  const keepFrom = before
    ? ((
        await tx
          .select({ seq: auditEntries.seq })
          .from(auditEntries)
          .where(and(eq(auditEntries.chain, chain), gte(auditEntries.occurredAt, londonMidnight(before))))
          .orderBy(asc(auditEntries.seq))
          .limit(1)
      )[0]?.seq ?? null)
    : null;
  const cond = keepFrom === null ? eq(auditEntries.chain, chain) : and(eq(auditEntries.chain, chain), lt(auditEntries.seq, keepFrom));
  const removed = await tx.delete(auditEntries).where(cond).returning({ seq: auditEntries.seq, hash: auditEntries.hash });
  if (removed.length === 0) return null;
  removed.sort((a, b) => a.seq - b.seq);
  const last = removed[removed.length - 1]!;
  await tx
    .insert(auditCheckpoints)
    .values({ chain, seq: last.seq, hash: last.hash, removed: removed.length, runId })
    .onConflictDoUpdate({
      target: auditCheckpoints.chain,
      set: { seq: last.seq, hash: last.hash, removed: sql`${auditCheckpoints.removed} + ${removed.length}`, runId, at: new Date() },
    });
  return { from: removed[0]!.seq, to: last.seq, count: removed.length, hash: last.hash };
}

const londonMidnight = (day: string) => sql`(${day}::date::timestamp at time zone 'Europe/London')`;

/**
 * Per chain, how many entries a run would remove for a London day: its prefix before the first entry
 * dated on or after it (eraseChainPrefix's rule), for the retention run's audit decisions.
 */
export async function chainsWithEntriesBefore(db: DbOrTx, before: string): Promise<Array<{ chain: string; n: number }>> {
  const rows = await db.execute<{ chain: string; n: number }>(sql`
    select e.chain, count(*)::int as n from records.audit_entries e
    where e.occurred_at < ${londonMidnight(before)}
      and e.seq < coalesce((select min(k.seq) from records.audit_entries k
                            where k.chain = e.chain and k.occurred_at >= ${londonMidnight(before)}), 2147483647)
    group by e.chain`);
  return rows.rows;
}

/** How many entries a chain holds (a whole chain going at the end of a relationship). */
export async function chainSize(db: DbOrTx, chain: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(auditEntries).where(eq(auditEntries.chain, chain));
  return row?.n ?? 0;
}

/** The ACSP verifications records knows of (aml's announcements), kept and withdrawn. */
export async function followAcspVerification(
  tx: DbOrTx,
  d: { clientId: string; personKey: string; personName: string; verifiedOn: string; withdrawn: boolean },
): Promise<void> {
  const key = and(
    eq(acspVerifications.clientId, d.clientId),
    eq(acspVerifications.personKey, d.personKey),
    eq(acspVerifications.verifiedOn, d.verifiedOn),
  );
  if (d.withdrawn) await tx.delete(acspVerifications).where(key);
  else
    await tx
      .insert(acspVerifications)
      .values({ clientId: d.clientId, personKey: d.personKey, personName: d.personName, verifiedOn: d.verifiedOn })
      .onConflictDoNothing();
}

/** ACSP verifications dated before a day, per client. */
export async function acspVerificationsBefore(db: DbOrTx, before: string) {
  return db.select().from(acspVerifications).where(lt(acspVerifications.verifiedOn, before)).orderBy(asc(acspVerifications.verifiedOn));
}

/** Entries of one client's chain (the archive's audit part for a person without their own sign-in). */
export async function auditOfClient(db: DbOrTx, clientId: string) {
  return db.select().from(auditEntries).where(eq(auditEntries.clientId, clientId)).orderBy(asc(auditEntries.occurredAt)).limit(50_000);
}

export async function insertAudit(tx: DbOrTx, row: NewAuditRow): Promise<void> {
  await tx.insert(auditEntries).values(row).onConflictDoNothing({ target: auditEntries.eventId });
}

export interface AuditFilter {
  clientId?: string;
  actorId?: string;
  kind?: 'views' | 'changes';
  from?: string;
  to?: string;
}

function auditWhere(f: AuditFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (f.clientId) parts.push(eq(auditEntries.clientId, f.clientId));
  if (f.actorId) parts.push(eq(auditEntries.actorId, f.actorId));
  if (f.kind === 'views') parts.push(inArray(auditEntries.action, [...VIEW_EVENTS]));
  if (f.kind === 'changes') parts.push(notInArray(auditEntries.action, [...VIEW_EVENTS]));
  // from/to are London days: from its midnight to the next day's.
  if (f.from) parts.push(gte(auditEntries.occurredAt, sql`(${f.from}::date::timestamp at time zone 'Europe/London')`));
  if (f.to) parts.push(lt(auditEntries.occurredAt, sql`((${f.to}::date + 1)::timestamp at time zone 'Europe/London')`));
  return parts.length ? and(...parts) : undefined;
}

export async function findAudit(db: DbOrTx, f: AuditFilter, page: { limit: number; offset: number }) {
  const where = auditWhere(f);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditEntries)
      .where(where)
      .orderBy(desc(auditEntries.occurredAt), desc(auditEntries.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(auditEntries).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function chainRows(db: DbOrTx, chain: string): Promise<AuditRow[]> {
  return db.select().from(auditEntries).where(eq(auditEntries.chain, chain)).orderBy(asc(auditEntries.seq));
}

export async function readFieldHashes(tx: DbOrTx, clientId: string): Promise<Map<string, string>> {
  const rows = await tx.select().from(fieldHashes).where(eq(fieldHashes.clientId, clientId));
  return new Map(rows.map((r) => [r.field, r.hash]));
}

export async function writeFieldHashes(tx: DbOrTx, clientId: string, hashes: ReadonlyMap<string, string>): Promise<void> {
  if (hashes.size === 0) return;
  await tx
    .insert(fieldHashes)
    .values([...hashes].map(([field, hash]) => ({ clientId, field, hash })))
    .onConflictDoUpdate({ target: [fieldHashes.clientId, fieldHashes.field], set: { hash: sql`excluded.hash` } });
}

/** The company names records holds for these clients (client_retention, from crm's events). */
export async function clientNames(db: DbOrTx, clientIds: readonly (string | null)[]): Promise<Map<string, string>> {
  const ids = [...new Set(clientIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ clientId: clientRetention.clientId, companyName: clientRetention.companyName })
    .from(clientRetention)
    .where(inArray(clientRetention.clientId, ids));
  return new Map(rows.flatMap((r) => (r.companyName ? [[r.clientId, r.companyName] as const] : [])));
}

export type ClientRetentionRow = typeof clientRetention.$inferSelect;

export async function readClientRetention(db: DbOrTx, clientId: string, o: { lock?: boolean } = {}) {
  const q = db.select().from(clientRetention).where(eq(clientRetention.clientId, clientId));
  const rows = o.lock ? await q.for('update') : await q;
  return rows[0] ?? null;
}

export async function upsertClientRetention(tx: DbOrTx, row: typeof clientRetention.$inferInsert): Promise<void> {
  const { clientId: _id, ...set } = row;
  await tx
    .insert(clientRetention)
    .values(row)
    .onConflictDoUpdate({ target: clientRetention.clientId, set: { ...set, updatedAt: new Date() } });
}

/** Clients whose records may have run out: ended relationships, and everyone when a rule runs from the record's date. */
export async function retentionCandidates(db: DbOrTx, everyone: boolean): Promise<ClientRetentionRow[]> {
  const q = db.select().from(clientRetention);
  return everyone ? q : q.where(sql`${clientRetention.relationshipEndedOn} is not null`);
}

export async function readRules(db: DbOrTx) {
  return db.select().from(retentionRules);
}

export async function writeRule(tx: DbOrTx, row: typeof retentionRules.$inferInsert) {
  const { recordType: _t, ...set } = row;
  const [saved] = await tx
    .insert(retentionRules)
    .values(row)
    .onConflictDoUpdate({ target: retentionRules.recordType, set: { ...set, updatedAt: new Date() } })
    .returning();
  return saved!;
}

export async function insertRun(tx: DbOrTx, row: typeof retentionRuns.$inferInsert) {
  const [saved] = await tx.insert(retentionRuns).values(row).returning();
  return saved!;
}

export async function recentRuns(db: DbOrTx, limit: number) {
  return db.select().from(retentionRuns).orderBy(desc(retentionRuns.startedAt)).limit(limit);
}

export async function reportOf(db: DbOrTx, runIds: string[]) {
  if (runIds.length === 0) return [];
  return db.select().from(retentionReport).where(inArray(retentionReport.runId, runIds)).orderBy(asc(retentionReport.id));
}

export async function answersOf(db: DbOrTx, runIds: string[]) {
  if (runIds.length === 0) return [];
  return db.select().from(retentionAnswers).where(inArray(retentionAnswers.runId, runIds));
}

/** A service's answer: its removed items join the run's report, once per run, client and record type. */
export async function recordErased(
  tx: DbOrTx,
  a: {
    runId: string;
    clientId: string;
    recordType: RetentionRecordType;
    service: string;
    items: Array<{ id: string; label: string; files: number }>;
    at: Date;
  },
): Promise<void> {
  const inserted = await tx
    .insert(retentionAnswers)
    .values({
      runId: a.runId,
      clientId: a.clientId,
      recordType: a.recordType,
      service: a.service,
      filesDeleted: a.items.reduce((n, i) => n + i.files, 0),
      items: a.items.length,
    })
    .onConflictDoNothing()
    .returning();
  if (inserted.length === 0 || a.items.length === 0) return;
  await tx.insert(retentionReport).values(
    a.items.map((i) => ({
      runId: a.runId,
      clientId: a.clientId,
      recordType: a.recordType,
      itemId: i.id,
      label: i.label,
      filesDeleted: i.files,
      erasedAt: a.at,
    })),
  );
}

export type SarRow = typeof sarRequests.$inferSelect;

export async function insertSar(tx: DbOrTx, row: typeof sarRequests.$inferInsert) {
  const [saved] = await tx.insert(sarRequests).values(row).returning();
  return saved!;
}

export async function readSar(db: DbOrTx, id: string, o: { lock?: boolean } = {}): Promise<SarRow | null> {
  const q = db.select().from(sarRequests).where(eq(sarRequests.id, id));
  const rows = o.lock ? await q.for('update') : await q;
  return rows[0] ?? null;
}

/** The list, without the archives themselves. */
export async function listSars(db: DbOrTx) {
  const { archive: _a, ...cols } = getTableColumns(sarRequests);
  return db.select(cols).from(sarRequests).orderBy(desc(sarRequests.createdAt)).limit(200);
}

export async function updateSar(tx: DbOrTx, id: string, set: Partial<typeof sarRequests.$inferInsert>) {
  await tx.update(sarRequests).set(set).where(eq(sarRequests.id, id));
}

export async function addSarFiles(tx: DbOrTx, requestId: string, files: Array<{ path: string; content: Buffer }>) {
  if (files.length) await tx.insert(sarFiles).values(files.map((f) => ({ requestId, ...f })));
}

export async function takeSarFiles(tx: DbOrTx, requestId: string) {
  return tx.delete(sarFiles).where(eq(sarFiles.requestId, requestId)).returning({ path: sarFiles.path, content: sarFiles.content });
}

/** Audit entries of one person's own actions (the archive's audit part). */
export async function auditByActor(db: DbOrTx, actorId: string) {
  return db.select().from(auditEntries).where(eq(auditEntries.actorId, actorId)).orderBy(asc(auditEntries.occurredAt)).limit(50_000);
}
