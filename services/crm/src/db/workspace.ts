import type { DbOrTx } from '@countinghouse/kit';
import type { ClientBadges, ClientIdentifiers, TimelineEntry, TimelineKind, WorkItem } from '@countinghouse/proto';
import { and, count, desc, eq, inArray, isNotNull, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { memberName } from './queries.js';
import { clientIdentifiers, clients, clientSignals, tasks, timelineEntries } from './schema.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string | null | undefined): s is string => Boolean(s && UUID.test(s));

// ---- identifiers ----

export type IdentifiersRow = typeof clientIdentifiers.$inferSelect;

export function toIdentifiers(r: IdentifiersRow | undefined): ClientIdentifiers {
  return {
    utr: r?.utr ?? null,
    vat_number: r?.vatNumber ?? null,
    paye_reference: r?.payeReference ?? null,
    accounts_office_reference: r?.accountsOfficeReference ?? null,
    nino: r?.nino ?? null,
    registered_office: r?.registeredOffice ?? null,
    sic_codes: r?.sicCodes ?? [],
    updated_at: r ? r.updatedAt.toISOString() : null,
    updated_by_name: r?.updatedByName ?? null,
  };
}

export async function readIdentifiers(db: DbOrTx, clientId: string): Promise<IdentifiersRow | undefined> {
  const [row] = await db.select().from(clientIdentifiers).where(eq(clientIdentifiers.clientId, clientId));
  return row;
}

export async function writeIdentifiers(db: DbOrTx, row: typeof clientIdentifiers.$inferInsert): Promise<IdentifiersRow> {
  const { clientId: _key, ...set } = row;
  const [out] = await db.insert(clientIdentifiers).values(row).onConflictDoUpdate({ target: clientIdentifiers.clientId, set }).returning();
  return out!;
}

// ---- timeline ----

export interface NewTimelineEntry {
  sourceId: string;
  clientId: string | null;
  userId?: string | null;
  kind: TimelineKind;
  at: Date;
  summary: string;
  actorName: string | null;
  source: string;
  ref?: { type: string; id: string } | null;
}

/** Enter one event on a Timeline, once per source id. Returns the entry, or null when it was already there. */
export async function insertTimelineEntry(db: DbOrTx, e: NewTimelineEntry) {
  const [row] = await db
    .insert(timelineEntries)
    .values({
      sourceId: e.sourceId,
      clientId: e.clientId,
      userId: e.userId ?? null,
      kind: e.kind,
      at: e.at,
      summary: e.summary,
      actorName: e.actorName,
      source: e.source,
      refType: e.ref?.type ?? null,
      refId: e.ref?.id ?? null,
    })
    .onConflictDoNothing({ target: timelineEntries.sourceId })
    .returning();
  return row ?? null;
}

/** Entries made before the person had a client record (signed up) join it once it exists. */
export async function attachOrphanEntries(db: DbOrTx, userId: string, clientId: string): Promise<void> {
  await db
    .update(timelineEntries)
    .set({ clientId })
    .where(and(isNull(timelineEntries.clientId), eq(timelineEntries.userId, userId)));
}

export function toTimelineEntry(r: typeof timelineEntries.$inferSelect): TimelineEntry {
  return {
    id: String(r.id),
    client_id: r.clientId ?? '',
    kind: r.kind,
    at: r.at.toISOString(),
    summary: r.summary,
    actor_name: r.actorName,
    source: r.source,
    ref: r.refType && r.refId ? { type: r.refType, id: r.refId } : null,
  };
}

/** A page of a client's Timeline, newest first; the cursor is "<at ISO>|<id>" of the last entry. */
export async function listTimeline(db: DbOrTx, clientId: string, q: { before?: { at: Date; id: number }; limit: number }) {
  const conds: (SQL | undefined)[] = [eq(timelineEntries.clientId, clientId)];
  if (q.before)
    conds.push(or(lt(timelineEntries.at, q.before.at), and(eq(timelineEntries.at, q.before.at), lt(timelineEntries.id, q.before.id))));
  return db
    .select()
    .from(timelineEntries)
    .where(and(...conds))
    .orderBy(desc(timelineEntries.at), desc(timelineEntries.id))
    .limit(q.limit);
}

export async function countTimeline(db: DbOrTx, clientId: string): Promise<number> {
  const [r] = await db.select({ n: count() }).from(timelineEntries).where(eq(timelineEntries.clientId, clientId));
  return r?.n ?? 0;
}

// ---- badges ----

export async function readSignals(db: DbOrTx, clientId: string): Promise<ClientBadges> {
  const [r] = await db.select().from(clientSignals).where(eq(clientSignals.clientId, clientId));
  return {
    due_diligence: r?.dueDiligence ?? 'outstanding',
    letter: r?.letter ?? 'none',
    overdue_deadlines: r?.overdueDeadlineIds.length ?? 0,
  };
}

type SignalChange =
  | { dueDiligence: 'approved' | 'outstanding' }
  /** Only while no version is in force: an approved file stays approved while the next one is worked on. */
  | { dueDiligenceUnlessApproved: 'awaiting_approval' | 'outstanding' }
  | { letter: 'awaiting_signature' | 'signed' }
  | { overdueAdd: string }
  | { overdueRemove: string };

export async function changeSignals(db: DbOrTx, clientId: string, c: SignalChange): Promise<void> {
  await db.insert(clientSignals).values({ clientId }).onConflictDoNothing();
  const set: Record<string, SQL | string | Date> = { updatedAt: new Date() };
  if ('dueDiligence' in c) set.dueDiligence = c.dueDiligence;
  if ('dueDiligenceUnlessApproved' in c)
    set.dueDiligence = sql`case when ${clientSignals.dueDiligence} = 'approved' then 'approved' else ${c.dueDiligenceUnlessApproved} end`;
  if ('letter' in c) set.letter = c.letter;
  if ('overdueAdd' in c)
    set.overdueDeadlineIds = sql`case when ${c.overdueAdd} = any(${clientSignals.overdueDeadlineIds}) then ${clientSignals.overdueDeadlineIds} else array_append(${clientSignals.overdueDeadlineIds}, ${c.overdueAdd}::text) end`;
  if ('overdueRemove' in c) set.overdueDeadlineIds = sql`array_remove(${clientSignals.overdueDeadlineIds}, ${c.overdueRemove}::text)`;
  await db.update(clientSignals).set(set).where(eq(clientSignals.clientId, clientId));
}

// ---- tasks ----

export async function openTaskCount(db: DbOrTx, clientId: string): Promise<number> {
  const [r] = await db
    .select({ n: count() })
    .from(tasks)
    .where(and(eq(tasks.clientId, clientId), inArray(tasks.status, ['pending', 'in_progress'])));
  return r?.n ?? 0;
}

/** A task with its client's accountant (who may complete it). */
export async function taskForAction(db: DbOrTx, id: string) {
  const [t] = await db.select().from(tasks).where(eq(tasks.id, id)).for('update');
  if (!t) return null;
  const [c] = t.clientId
    ? await db.select({ accountantId: clients.assignedAccountantId }).from(clients).where(eq(clients.id, t.clientId))
    : [];
  return { t, accountantId: c?.accountantId ?? null };
}

export async function setTaskStatus(db: DbOrTx, id: string, status: 'completed' | 'pending') {
  await db
    .update(tasks)
    .set({ status, completedAt: status === 'completed' ? new Date() : null, updatedAt: new Date() })
    .where(eq(tasks.id, id));
}

/**
 * My work's tasks: open, with a due date up to `horizon`. mine: assigned to me, and for an accountant
 * also the unassigned tasks of their clients; everyone: all open tasks.
 */
export async function workTasks(
  db: DbOrTx,
  q: { who: 'mine' | 'everyone'; userId: string; accountant: boolean; horizon: string },
): Promise<Array<Omit<WorkItem, 'bucket'>>> {
  const mine: SQL | undefined =
    q.who === 'everyone'
      ? undefined
      : q.accountant
        ? or(eq(tasks.assigneeId, q.userId), and(isNull(tasks.assigneeId), eq(clients.assignedAccountantId, q.userId)))
        : eq(tasks.assigneeId, q.userId);
  const rows = await db
    .select({ t: tasks, company: clients.companyName, assigneeName: memberName(tasks.assigneeId) })
    .from(tasks)
    .leftJoin(clients, eq(clients.id, tasks.clientId))
    .where(and(inArray(tasks.status, ['pending', 'in_progress']), isNotNull(tasks.dueDate), lte(tasks.dueDate, q.horizon), mine))
    .orderBy(tasks.dueDate, tasks.id)
    .limit(500);
  return rows.map((r) => ({
    kind: 'task' as const,
    id: r.t.id,
    client_id: r.t.clientId,
    client_name: r.company,
    title: r.t.title,
    due_on: r.t.dueDate!,
    assignee_id: r.t.assigneeId,
    assignee_name: r.assigneeName,
    deadline_id: r.t.deadlineId,
  }));
}
