import { AppError, requireRole, type App, type Db } from '@countinghouse/kit';
import {
  TaskCreateBodySchema,
  TaskListQuerySchema,
  TaskListSchema,
  TaskSchema,
  TaskUpdateBodySchema,
  TEAM_MEMBER_ROLES,
  type TaskCreateBody,
  type TaskListQuery,
  type TaskUpdateBody,
  rolesFor,
} from '@countinghouse/proto';
import { and, asc, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { CrmScope } from '../domain/access.js';
import { cleanOptional, cleanRequired, containsPattern } from '../domain/clients.js';
import { isActiveMember, memberName, toTask } from '../db/queries.js';
import { clients, tasks } from '../db/schema.js';
import { errors, IdParams, pageOf, scope, type RouteDeps } from './shared.js';

export const TASK_MESSAGES = {
  notFound: 'Task not found',
  unknownClient: 'That client does not exist.',
  unknownAssignee: 'Choose someone from the team: this person is not an active team member.',
} as const;

export function taskSearch(text: string): SQL {
  return sql`${tasks.title} ilike ${containsPattern(text)}`;
}

/** An accountant's tasks: assigned to them, or about a client assigned to them. */
export function accountantTasks(s: CrmScope): SQL | undefined {
  if (s.kind !== 'accountant') return undefined;
  return or(eq(tasks.assigneeId, s.userId), eq(clients.assignedAccountantId, s.userId));
}

async function loadTask(db: Db, id: string, extra?: SQL) {
  const rows = await db
    .select({ t: tasks, company: clients.companyName, assigneeName: memberName(tasks.assigneeId) })
    .from(tasks)
    .leftJoin(clients, eq(clients.id, tasks.clientId))
    .where(and(eq(tasks.id, id), extra));
  const r = rows[0];
  return r ? toTask(r.t, r.company, r.assigneeName) : null;
}

async function checkRefs(db: Db, b: { client_id?: string | null; assignee_id?: string | null }) {
  if (b.client_id) {
    const found = await db.select({ id: clients.id }).from(clients).where(eq(clients.id, b.client_id));
    if (found.length === 0)
      throw new AppError('VALIDATION_FAILED', TASK_MESSAGES.unknownClient, [{ path: 'client_id', message: TASK_MESSAGES.unknownClient }]);
  }
  if (b.assignee_id && !(await isActiveMember(db, b.assignee_id, TEAM_MEMBER_ROLES)))
    throw new AppError('VALIDATION_FAILED', TASK_MESSAGES.unknownAssignee, [
      { path: 'assignee_id', message: TASK_MESSAGES.unknownAssignee },
    ]);
}

export function taskRoutes(app: App, { db }: RouteDeps) {
  app.get(
    '/tasks',
    {
      preHandler: requireRole(rolesFor('clients.view')),
      schema: {
        tags: ['crm'],
        summary: 'Tasks: open work by due date (accountants see only theirs)',
        querystring: TaskListQuerySchema,
        response: { 200: TaskListSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query as TaskListQuery;
      const conds: (SQL | undefined)[] = [accountantTasks(scope(request))];
      if (q.status) conds.push(eq(tasks.status, q.status));
      if (q.priority) conds.push(eq(tasks.priority, q.priority));
      if (q.client_id) conds.push(eq(tasks.clientId, q.client_id));
      if (q.assignee_id) conds.push(eq(tasks.assigneeId, q.assignee_id));
      if (q.search?.trim()) conds.push(taskSearch(q.search.trim()));
      const where = and(...conds);
      const { limit, offset } = pageOf(q);
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
      return {
        tasks: rows.map((r) => toTask(r.t, r.company, r.assigneeName)),
        total: total[0]?.n ?? 0,
        page: q.page,
        page_size: q.page_size,
      };
    },
  );

  app.get(
    '/tasks/:id',
    {
      preHandler: requireRole(rolesFor('clients.view')),
      schema: { tags: ['crm'], summary: 'One task', params: IdParams, response: { 200: TaskSchema, ...errors } },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const t = await loadTask(db, id, accountantTasks(scope(request)));
      if (!t) throw new AppError('NOT_FOUND', TASK_MESSAGES.notFound);
      return t;
    },
  );

  app.post(
    '/tasks',
    {
      preHandler: requireRole(rolesFor('tasks.manage')),
      schema: { tags: ['crm'], summary: 'Add a task', body: TaskCreateBodySchema, response: { 201: TaskSchema, ...errors } },
    },
    async (request, reply) => {
      const b = request.body as TaskCreateBody;
      await checkRefs(db, b);
      const status = b.status ?? 'pending';
      const [row] = await db
        .insert(tasks)
        .values({
          title: cleanRequired(b.title),
          description: cleanOptional(b.description) ?? null,
          clientId: b.client_id ?? null,
          assigneeId: b.assignee_id ?? null,
          dueDate: b.due_date ?? null,
          status,
          priority: b.priority ?? 'medium',
          completedAt: status === 'completed' ? new Date() : null,
        })
        .returning();
      return reply.status(201).send((await loadTask(db, row!.id))!);
    },
  );

  app.patch(
    '/tasks/:id',
    {
      preHandler: requireRole(rolesFor('tasks.manage')),
      schema: {
        tags: ['crm'],
        summary: 'Edit a task or change its status',
        params: IdParams,
        body: TaskUpdateBodySchema,
        response: { 200: TaskSchema, ...errors },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const b = request.body as TaskUpdateBody;
      await checkRefs(db, b);
      const set: Record<string, unknown> = { updatedAt: new Date() };
      if (b.title !== undefined) set.title = cleanRequired(b.title);
      if (b.description !== undefined) set.description = cleanOptional(b.description) ?? null;
      if (b.client_id !== undefined) set.clientId = b.client_id;
      if (b.assignee_id !== undefined) set.assigneeId = b.assignee_id;
      if (b.due_date !== undefined) set.dueDate = b.due_date;
      if (b.priority !== undefined) set.priority = b.priority;
      if (b.status !== undefined) {
        set.status = b.status;
        set.completedAt = b.status === 'completed' ? sql`coalesce(${tasks.completedAt}, now())` : null;
      }
      const [row] = await db.update(tasks).set(set).where(eq(tasks.id, id)).returning({ id: tasks.id });
      if (!row) throw new AppError('NOT_FOUND', TASK_MESSAGES.notFound);
      return (await loadTask(db, id))!;
    },
  );
}
