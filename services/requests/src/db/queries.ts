import { clientDirectoryEntry, type ClientScope, type DbOrTx as Db } from '@countinghouse/kit';
import type { TemplateBody } from '@countinghouse/proto';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { activity, clientDirectory, deadlineDirectory, items, messages, reminders, requests, templates, threadReads } from './schema.js';

export type DirectoryRow = typeof clientDirectory.$inferSelect;
export type RequestRow = typeof requests.$inferSelect;
export type ItemRow = typeof items.$inferSelect;
export type TemplateRow = typeof templates.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

// ---- the client directory (crm.client_upserted) ----

export async function directoryEntry(db: Db, clientId: string): Promise<DirectoryRow | null> {
  return clientDirectoryEntry(db, clientDirectory, clientId);
}

/** The clients a scope covers, by name (the practice's pick of whom to send a request to). */
export async function clientsIn(db: Db, scope: ClientScope) {
  const s = scopeClients(scope);
  return db
    .select({ client_id: clientDirectory.clientId, company_name: clientDirectory.companyName })
    .from(clientDirectory)
    .where(s ?? undefined)
    .orderBy(asc(clientDirectory.companyName))
    .limit(2000);
}

/** The clients a scope covers, as a SQL condition on a client_id column (null: every client). */
export function scopeClients(scope: ClientScope) {
  if (scope.all) return null;
  return sql`client_id in (select d.client_id from requests.client_directory d
    where (${scope.ownerUserId}::text is not null and d.user_id = ${scope.ownerUserId})
       or (${scope.accountantId}::text is not null and d.assigned_accountant_id = ${scope.accountantId}))`;
}

// ---- deadlines (deadlines.client_deadlines) ----

export async function replaceClientDeadlines(
  tx: Db,
  clientId: string,
  rows: Array<{ deadlineId: string; kind: string; period: string; dueOn: string; done: boolean }>,
): Promise<void> {
  await tx.delete(deadlineDirectory).where(eq(deadlineDirectory.clientId, clientId));
  if (rows.length > 0) await tx.insert(deadlineDirectory).values(rows.map((r) => ({ ...r, clientId })));
}

export async function markDeadlineDone(tx: Db, deadlineId: string): Promise<void> {
  await tx.update(deadlineDirectory).set({ done: true }).where(eq(deadlineDirectory.deadlineId, deadlineId));
}

/**
 * Open deadlines whose template's lead time has begun (due within lead_days of today, not passed) and
 * for which no request was opened at this due date.
 */
export async function deadlinesToOpen(db: Db, today: string, limit: number) {
  const res = await db.execute<{
    deadline_id: string;
    client_id: string;
    kind: string;
    period: string;
    due_on: string;
    template_id: string;
  }>(sql`
    select dd.deadline_id, dd.client_id, dd.kind, dd.period, dd.due_on::text as due_on, t.id as template_id
    from requests.deadline_directory dd
    join requests.templates t on t.deadline_kind = dd.kind and t.lead_days is not null
    join requests.client_directory c on c.client_id = dd.client_id
    where not dd.done and dd.due_on >= ${today}::date and dd.due_on - t.lead_days <= ${today}::date
      and not exists (select 1 from requests.requests r where r.deadline_id = dd.deadline_id and r.deadline_due_on = dd.due_on)
    order by dd.due_on, dd.deadline_id
    limit ${limit}`);
  return res.rows;
}

// ---- templates ----

export async function ensureTemplates(db: Db, defaults: TemplateBody[]): Promise<void> {
  // Once: a second start (or replica) adds nothing; an advisory lock keeps two first starts from racing.
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('requests-default-templates'))`);
    const [n] = await tx.select({ n: sql<number>`count(*)::int` }).from(templates);
    if ((n?.n ?? 0) > 0) return;
    await tx
      .insert(templates)
      .values(
        defaults.map((t) => ({ name: t.name, items: t.items, schedule: t.schedule, deadlineKind: t.deadline_kind, leadDays: t.lead_days })),
      );
  });
}

export async function listTemplates(db: Db): Promise<TemplateRow[]> {
  return db.select().from(templates).orderBy(asc(templates.name));
}

export async function templateById(db: Db, id: string): Promise<TemplateRow | null> {
  const [row] = await db.select().from(templates).where(eq(templates.id, id));
  return row ?? null;
}

export async function insertTemplate(db: Db, t: TemplateBody): Promise<TemplateRow> {
  const [row] = await db
    .insert(templates)
    .values({ name: t.name, items: t.items, schedule: t.schedule, deadlineKind: t.deadline_kind, leadDays: t.lead_days })
    .returning();
  return row!;
}

export async function updateTemplate(db: Db, id: string, t: TemplateBody): Promise<TemplateRow | null> {
  const [row] = await db
    .update(templates)
    .set({
      name: t.name,
      items: t.items,
      schedule: t.schedule,
      deadlineKind: t.deadline_kind,
      leadDays: t.lead_days,
      updatedAt: new Date(),
    })
    .where(eq(templates.id, id))
    .returning();
  return row ?? null;
}

export async function deleteTemplate(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(templates).where(eq(templates.id, id)).returning({ id: templates.id });
  return rows.length > 0;
}

// ---- requests ----

export async function insertRequest(db: Db, row: typeof requests.$inferInsert): Promise<RequestRow | null> {
  const [r] = await db.insert(requests).values(row).onConflictDoNothing().returning();
  return r ?? null;
}

export async function insertItems(db: Db, rows: Array<typeof items.$inferInsert>): Promise<ItemRow[]> {
  return db.insert(items).values(rows).returning();
}

export async function requestById(db: Db, id: string, opts: { forUpdate?: boolean } = {}): Promise<RequestRow | null> {
  const q = db.select().from(requests).where(eq(requests.id, id));
  const [row] = opts.forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

export async function findRequests(
  db: Db,
  scope: ClientScope,
  f: { status?: RequestRow['status']; clientId?: string },
): Promise<RequestRow[]> {
  const conds = [];
  const s = scopeClients(scope);
  if (s) conds.push(s);
  if (f.status) conds.push(eq(requests.status, f.status));
  if (f.clientId) conds.push(eq(requests.clientId, f.clientId));
  return db
    .select()
    .from(requests)
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(asc(requests.dueOn), asc(requests.createdAt))
    .limit(500);
}

export async function itemsOf(db: Db, requestIds: string[]): Promise<ItemRow[]> {
  if (requestIds.length === 0) return [];
  return db.select().from(items).where(inArray(items.requestId, requestIds)).orderBy(asc(items.position));
}

export async function itemById(db: Db, id: string, opts: { forUpdate?: boolean } = {}): Promise<ItemRow | null> {
  const q = db.select().from(items).where(eq(items.id, id));
  const [row] = opts.forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

export async function updateItem(db: Db, id: string, set: Partial<typeof items.$inferInsert>): Promise<ItemRow> {
  const [row] = await db.update(items).set(set).where(eq(items.id, id)).returning();
  return row!;
}

export async function setRequestStatus(db: Db, id: string, status: RequestRow['status'], completedAt: Date | null): Promise<void> {
  await db.update(requests).set({ status, completedAt }).where(eq(requests.id, id));
}

export async function addActivity(db: Db, row: typeof activity.$inferInsert): Promise<void> {
  await db.insert(activity).values(row);
}

export async function activityOf(db: Db, requestIds: string[]) {
  if (requestIds.length === 0) return [];
  return db.select().from(activity).where(inArray(activity.requestId, requestIds)).orderBy(asc(activity.at));
}

export async function remindersOf(db: Db, requestIds: string[]) {
  if (requestIds.length === 0) return [];
  return db.select().from(reminders).where(inArray(reminders.requestId, requestIds)).orderBy(asc(reminders.day));
}

/** Claim today's reminder of a request: false when one already went today (never two a day). */
export async function claimReminder(db: Db, row: typeof reminders.$inferInsert): Promise<boolean> {
  const r = await db.insert(reminders).values(row).onConflictDoNothing().returning({ day: reminders.day });
  return r.length > 0;
}

/** Open requests with at least one item still open (requested or rejected), in id order, one page. */
export async function chaseableRequests(db: Db, after: string | null, limit: number): Promise<RequestRow[]> {
  return db
    .select()
    .from(requests)
    .where(
      and(
        eq(requests.status, 'open'),
        after ? gt(requests.id, after) : undefined,
        sql`exists (select 1 from requests.items i where i.request_id = ${requests.id} and i.status in ('requested', 'rejected'))`,
      ),
    )
    .orderBy(asc(requests.id))
    .limit(limit);
}

/** Items submitted and waiting for the practice's review, for My work. */
export async function awaitingReview(db: Db, scope: ClientScope) {
  const s = scopeClients(scope);
  const res = await db.execute<{
    request_id: string;
    item_id: string;
    client_id: string;
    client_name: string;
    title: string;
    label: string;
    submitted_at: string;
  }>(sql`
    select r.id as request_id, i.id as item_id, r.client_id, coalesce(c.company_name, r.client_id) as client_name, r.title, i.label,
      to_char(i.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as submitted_at
    from requests.items i join requests.requests r on r.id = i.request_id
    left join requests.client_directory c on c.client_id = r.client_id
    where i.status = 'submitted' and r.status = 'open' ${s ? sql`and r.${s}` : sql``}
    order by i.submitted_at
    limit 500`);
  return res.rows;
}

// ---- messages ----

export async function insertMessage(db: Db, row: typeof messages.$inferInsert): Promise<MessageRow> {
  const [m] = await db.insert(messages).values(row).returning();
  return m!;
}

export async function threadOf(db: Db, clientId: string): Promise<MessageRow[]> {
  return db.select().from(messages).where(eq(messages.clientId, clientId)).orderBy(asc(messages.createdAt));
}

export async function readAtOf(db: Db, clientId: string, side: 'client' | 'practice'): Promise<Date | null> {
  const [r] = await db
    .select()
    .from(threadReads)
    .where(and(eq(threadReads.clientId, clientId), eq(threadReads.side, side)));
  return r?.readAt ?? null;
}

export async function markRead(db: Db, clientId: string, side: 'client' | 'practice', at: Date): Promise<void> {
  await db
    .insert(threadReads)
    .values({ clientId, side, readAt: at })
    .onConflictDoUpdate({
      target: [threadReads.clientId, threadReads.side],
      set: { readAt: sql`greatest(${threadReads.readAt}, excluded.read_at)` },
    });
}

/** Threads with client messages the practice has not read (My work), newest first. */
export async function unreadThreads(db: Db, scope: ClientScope) {
  const s = scopeClients(scope);
  const res = await db.execute<{ client_id: string; client_name: string; unread: number; last_at: string }>(sql`
    select m.client_id, coalesce(c.company_name, m.client_id) as client_name, count(*)::int as unread,
      to_char(max(m.created_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_at
    from requests.messages m
    left join requests.client_directory c on c.client_id = m.client_id
    left join requests.thread_reads tr on tr.client_id = m.client_id and tr.side = 'practice'
    where m.side = 'client' and (tr.read_at is null or m.created_at > tr.read_at) ${s ? sql`and m.${s}` : sql``}
    group by m.client_id, c.company_name
    order by max(m.created_at) desc
    limit 500`);
  return res.rows;
}
