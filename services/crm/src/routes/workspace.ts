import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  ClientIdentifiersInputSchema,
  ClientIdParamsSchema,
  ClientRecordSchema,
  IdentifiersSaveReplySchema,
  NoteInputSchema,
  NoteReplySchema,
  rolesFor,
  TaskActionReplySchema,
  TimelineQuerySchema,
  TimelineReplySchema,
  WorkQuerySchema,
  WorkReplySchema,
} from '@countinghouse/proto';
import type { CrmDeps } from '../use-cases/deps.js';
import { addNote, changeTaskStatus, findTimeline, findWorkTasks, getClientRecord, saveIdentifiers } from '../use-cases/workspace.js';
import { errors, IdParams } from './shared.js';

/** The workspace (issue 26, docs/workspace-api.md): the client record, its Timeline and notes, My work's tasks, completing tasks. */
export function workspaceRoutes(app: App, deps: CrmDeps) {
  const tags = ['crm'];
  app.get(
    '/clients/:id/record',
    {
      preHandler: requireRole(rolesFor('clients.view')),
      schema: {
        tags,
        summary: 'The client record: header, identifiers, badges, counts (accountants: their clients only, else 403)',
        params: ClientIdParamsSchema,
        response: { 200: ClientRecordSchema, ...errors },
      },
    },
    async (request) => getClientRecord(deps, requireAuth(request), request.params.id),
  );

  app.put(
    '/clients/:id/identifiers',
    {
      preHandler: requireRole(rolesFor('clients.edit')),
      schema: {
        tags,
        summary: "The client's UK identifiers, each checked (format and check digits)",
        params: ClientIdParamsSchema,
        body: ClientIdentifiersInputSchema,
        response: { 200: IdentifiersSaveReplySchema, ...errors },
      },
    },
    async (request) => saveIdentifiers(deps, requireAuth(request), request.params.id, request.body),
  );

  app.get(
    '/clients/:id/timeline',
    {
      preHandler: requireRole(rolesFor('clients.view')),
      schema: {
        tags,
        summary: "The client's Timeline, newest first (a read model of the services' events)",
        params: ClientIdParamsSchema,
        querystring: TimelineQuerySchema,
        response: { 200: TimelineReplySchema, ...errors },
      },
    },
    async (request) => findTimeline(deps, requireAuth(request), request.params.id, request.query),
  );

  app.post(
    '/clients/:id/notes',
    {
      preHandler: requireRole(rolesFor('clients.notes')),
      schema: {
        tags,
        summary: "A note on the client's Timeline",
        params: ClientIdParamsSchema,
        body: NoteInputSchema,
        response: { 201: NoteReplySchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await addNote(deps, requireAuth(request), request.params.id, request.body)),
  );

  app.get(
    '/work',
    {
      preHandler: requireRole(rolesFor('work.view')),
      schema: {
        tags,
        summary: "My work: open tasks overdue or due by the end of next week (who=everyone: the team's)",
        querystring: WorkQuerySchema,
        response: { 200: WorkReplySchema, ...errors },
      },
    },
    async (request) => findWorkTasks(deps, requireAuth(request), request.query),
  );

  for (const [path, to] of [
    ['complete', 'completed'],
    ['reopen', 'pending'],
  ] as const)
    app.post(
      `/tasks/:id/${path}`,
      {
        preHandler: requireRole(rolesFor('tasks.complete')),
        schema: {
          tags,
          summary: to === 'completed' ? 'Complete a task' : 'Reopen a completed task',
          params: IdParams,
          response: { 200: TaskActionReplySchema, ...errors },
        },
      },
      async (request) => changeTaskStatus(deps, requireAuth(request), request.params.id, to),
    );
}
