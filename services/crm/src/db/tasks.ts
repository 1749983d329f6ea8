import type { DbOrTx } from '@countinghouse/kit';
import type { Task, TaskListQuery } from '@countinghouse/proto';
import { and, asc, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { CrmScope } from '../domain/access.js';
import { containsPattern } from '../domain/clients.js';
import { memberName, toTask } from './queries.js';
import { clients, tasks } from './schema.js';

export function taskSearch(text: string): SQL {
  return sql`${tasks.title} ilike ${containsPattern(text)}`;
}

/** An accountant's tasks: assigned to them, or about a client assigned to them. */
export function accountantTasks(s: CrmScope): SQL | undefined {
  if (s.kind !== 'accountant') return undefined;
  return or(eq(tasks.assigneeId, s.userId), eq(clients.assignedAccountantId, s.userId));
}

/** One page of tasks and their total: open work first, by due date. Tuned at 200k rows (docs/perf/crm-plans.md). */
export async function listTasks(
  db: DbOrTx,
  s: CrmScope,
  q: TaskListQuery,
  page: { limit: number; offset: number },
): Promise<{ tasks: Task[]; total: number }> {
  const conds: (SQL | undefined)[] = [accountantTasks(s)];
  if (q.status) conds.push(eq(tasks.status, q.status));
  if (q.priority) conds.push(eq(tasks.priority, q.priority));
  if (q.client_id) conds.push(eq(tasks.clientId, q.client_id));
  if (q.assignee_id) conds.push(eq(tasks.assigneeId, q.assignee_id));
  if (q.search?.trim()) conds.push(taskSearch(q.search.trim()));
  const where = and(...conds);
  const { limit, offset } = page;
  const [rows, total] = await Promise.all([
    db
      .select({ t: tasks, company: clients.companyName, assigneeName: memberName(tasks.assigneeId) })
      .from(tasks)
      .leftJoin(clients, eq(clients.id, tasks.clientId))
      .where(where)
      .orderBy(
        sql`case when ${tasks.status} in ('pending', 'in_progress') then 0 else 1 end`,
        sql`${tasks.dueDate} asc nulls last`,
        desc(tasks.createdAt),
        asc(tasks.id),
      )
      .limit(limit)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(tasks)
      .leftJoin(clients, eq(clients.id, tasks.clientId))
      .where(where),
  ]);
  return { tasks: rows.map((r) => toTask(r.t, r.company, r.assigneeName)), total: total[0]?.n ?? 0 };
}

/** One task with its client's name and assignee's name, within the scope's tasks; null when out of reach. */
export async function loadTask(db: DbOrTx, id: string, s?: CrmScope): Promise<Task | null> {
  const rows = await db
    .select({ t: tasks, company: clients.companyName, assigneeName: memberName(tasks.assigneeId) })
    .from(tasks)
    .leftJoin(clients, eq(clients.id, tasks.clientId))
    .where(and(eq(tasks.id, id), s ? accountantTasks(s) : undefined));
  const r = rows[0];
  return r ? toTask(r.t, r.company, r.assigneeName) : null;
}

export async function insertTask(db: DbOrTx, values: typeof tasks.$inferInsert): Promise<string> {
  const [row] = await db.insert(tasks).values(values).returning({ id: tasks.id });
  return row!.id;
}

export interface TaskChanges {
  title?: string;
  description?: string | null;
  clientId?: string | null;
  assigneeId?: string | null;
  dueDate?: string | null;
  priority?: string;
  status?: string;
}

/** Change a task; completing keeps the first completion time, reopening clears it. False when there is no such task. */
export async function updateTask(db: DbOrTx, id: string, changes: TaskChanges): Promise<boolean> {
  const set: Record<string, unknown> = { updatedAt: new Date() };
  if (changes.title !== undefined) set.title = changes.title;
  if (changes.description !== undefined) set.description = changes.description;
  if (changes.clientId !== undefined) set.clientId = changes.clientId;
  if (changes.assigneeId !== undefined) set.assigneeId = changes.assigneeId;
  if (changes.dueDate !== undefined) set.dueDate = changes.dueDate;
  if (changes.priority !== undefined) set.priority = changes.priority;
  if (changes.status !== undefined) {
    set.status = changes.status;
    set.completedAt = changes.status === 'completed' ? sql`coalesce(${tasks.completedAt}, now())` : null;
  }
  const [row] = await db.update(tasks).set(set).where(eq(tasks.id, id)).returning({ id: tasks.id });
  return Boolean(row);
}
