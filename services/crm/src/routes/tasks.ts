import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  TaskCreateBodySchema,
  TaskListQuerySchema,
  TaskListSchema,
  TaskSchema,
  TaskUpdateBodySchema,
  rolesFor,
} from '@countinghouse/proto';
import type { CrmDeps } from '../use-cases/deps.js';
import { addTask, changeTask, findTasks, getTask } from '../use-cases/tasks.js';
import { errors, IdParams } from './shared.js';

export function taskRoutes(app: App, deps: CrmDeps) {
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
    async (request) => findTasks(deps, requireAuth(request), request.query),
  );

  app.get(
    '/tasks/:id',
    {
      preHandler: requireRole(rolesFor('clients.view')),
      schema: { tags: ['crm'], summary: 'One task', params: IdParams, response: { 200: TaskSchema, ...errors } },
    },
    async (request) => getTask(deps, requireAuth(request), request.params.id),
  );

  app.post(
    '/tasks',
    {
      preHandler: requireRole(rolesFor('tasks.manage')),
      schema: { tags: ['crm'], summary: 'Add a task', body: TaskCreateBodySchema, response: { 201: TaskSchema, ...errors } },
    },
    async (request, reply) => reply.status(201).send(await addTask(deps, request.body)),
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
    async (request) => changeTask(deps, request.params.id, request.body, requireAuth(request)),
  );
}
