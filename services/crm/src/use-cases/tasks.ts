import { AppError, enqueueEvent, type Principal } from '@countinghouse/kit';
import {
  TEAM_MEMBER_ROLES,
  type Task,
  type TaskCreateBody,
  type TaskList,
  type TaskListQuery,
  type TaskUpdateBody,
} from '@countinghouse/proto';
import { clientExists } from '../db/clients.js';
import { isActiveMember } from '../db/queries.js';
import { insertTask, listTasks, loadTask, updateTask } from '../db/tasks.js';
import { scopeOf } from '../domain/access.js';
import { cleanOptional, cleanRequired } from '../domain/clients.js';
import { TASK_MESSAGES } from '../domain/tasks.js';
import { SCHEMA } from '../db/schema.js';
import { actorOf, pageOf, type CrmDeps } from './deps.js';

/** A task's client must exist and its assignee be an active team member. */
async function checkRefs(deps: CrmDeps, b: { client_id?: string | null; assignee_id?: string | null }) {
  if (b.client_id && !(await clientExists(deps.db, b.client_id)))
    throw new AppError('VALIDATION_FAILED', TASK_MESSAGES.unknownClient, [{ path: 'client_id', message: TASK_MESSAGES.unknownClient }]);
  if (b.assignee_id && !(await isActiveMember(deps.db, b.assignee_id, TEAM_MEMBER_ROLES)))
    throw new AppError('VALIDATION_FAILED', TASK_MESSAGES.unknownAssignee, [
      { path: 'assignee_id', message: TASK_MESSAGES.unknownAssignee },
    ]);
}

/** Tasks: open work by due date (an accountant sees theirs and their clients'). */
export async function findTasks(deps: CrmDeps, principal: Principal, q: TaskListQuery): Promise<TaskList> {
  const { tasks, total } = await listTasks(deps.db, scopeOf(principal), q, pageOf(q));
  return { tasks, total, page: q.page, page_size: q.page_size };
}

export async function getTask(deps: CrmDeps, principal: Principal, id: string): Promise<Task> {
  const t = await loadTask(deps.db, id, scopeOf(principal));
  if (!t) throw new AppError('NOT_FOUND', TASK_MESSAGES.notFound);
  return t;
}

export async function addTask(deps: CrmDeps, b: TaskCreateBody): Promise<Task> {
  await checkRefs(deps, b);
  const status = b.status ?? 'pending';
  const id = await insertTask(deps.db, {
    title: cleanRequired(b.title),
    description: cleanOptional(b.description) ?? null,
    clientId: b.client_id ?? null,
    assigneeId: b.assignee_id ?? null,
    dueDate: b.due_date ?? null,
    status,
    priority: b.priority ?? 'medium',
    completedAt: status === 'completed' ? new Date() : null,
  });
  return (await loadTask(deps.db, id))!;
}

/** Edit a task or change its status; completing it announces crm.task_done (the client's Timeline), in the same transaction. */
export async function changeTask(deps: CrmDeps, id: string, b: TaskUpdateBody, principal?: Principal): Promise<Task> {
  await checkRefs(deps, b);
  await deps.db.transaction(async (tx) => {
    const before = b.status === 'completed' ? await loadTask(tx, id) : null;
    const found = await updateTask(tx, id, {
      title: b.title !== undefined ? cleanRequired(b.title) : undefined,
      description: b.description !== undefined ? (cleanOptional(b.description) ?? null) : undefined,
      clientId: b.client_id,
      assigneeId: b.assignee_id,
      dueDate: b.due_date,
      priority: b.priority,
      status: b.status,
    });
    if (!found) throw new AppError('NOT_FOUND', TASK_MESSAGES.notFound);
    if (before && before.status !== 'completed') {
      const after = (await loadTask(tx, id))!;
      await enqueueEvent(
        tx,
        SCHEMA,
        'crm.task_done',
        { taskId: id, clientId: after.client_id, title: after.title, doneByName: principal?.name || 'The practice' },
        { actor: principal ? actorOf(principal) : { kind: 'system', id: null }, key: after.client_id ?? id },
      );
    }
  });
  return (await loadTask(deps.db, id))!;
}
