import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  AwaitingReviewSchema,
  ClientRequestSchema,
  MessageSchema,
  NewRequestBodySchema,
  OkSchema,
  PostMessageBodySchema,
  RequestListQuerySchema,
  RequestClientsSchema,
  RequestListSchema,
  RequestTemplateSchema,
  RequestTemplatesSchema,
  ReviewItemBodySchema,
  rolesFor,
  SubmitItemBodySchema,
  TemplateBodySchema,
  ThreadSchema,
  UnreadThreadsSchema,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type { RequestsDeps } from '../use-cases/deps.js';
import { findUnreadThreads, getThread, postMessage } from '../use-cases/messages.js';
import {
  cancelRequest,
  findAwaitingReview,
  findRequestClients,
  findClientRequests,
  getRequest,
  remindNow,
  reviewItem,
  sendRequest,
  submitItem,
} from '../use-cases/requests.js';
import { addTemplate, changeTemplate, getTemplates, removeTemplate } from '../use-cases/templates.js';

const ErrorRef = Type.Ref('ErrorBody');
const E = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, 409: ErrorRef, 413: ErrorRef, 415: ErrorRef };
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
const ItemParams = Type.Object({ id: Type.String({ format: 'uuid' }), itemId: Type.String({ format: 'uuid' }) });
const ClientParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 64 }) });
const ThreadQuery = Type.Object({ mark_read: Type.Optional(Type.Boolean({ default: true })) });

const canView = requireRole(rolesFor('requests.view'));
const canManage = requireRole(rolesFor('requests.manage'));
const canEditTemplates = requireRole(rolesFor('requests.templates'));
const tags = ['requests'];

/**
 * Client requests and secure messages. Every route narrows to the clients the caller may see (a client
 * their own business, an accountant their assigned clients); the practice-only actions (send, review,
 * remind, cancel) also need requests.manage and the practice's side of that client.
 */
export function requestRoutes(app: App, deps: RequestsDeps) {
  app.get(
    '/',
    {
      preHandler: canView,
      schema: {
        tags,
        summary: 'Requests the caller may see',
        querystring: RequestListQuerySchema,
        response: { 200: RequestListSchema, ...E },
      },
    },
    async (request) => findClientRequests(deps, requireAuth(request), request.query),
  );
  app.post(
    '/',
    {
      preHandler: canManage,
      schema: { tags, summary: 'Send a client a request', body: NewRequestBodySchema, response: { 201: ClientRequestSchema, ...E } },
    },
    async (request, reply) => reply.code(201).send(await sendRequest(deps, requireAuth(request), request.body)),
  );
  app.get(
    '/awaiting-review',
    {
      preHandler: canManage,
      schema: { tags, summary: 'Items submitted and waiting for review (My work)', response: { 200: AwaitingReviewSchema, ...E } },
    },
    async (request) => findAwaitingReview(deps, requireAuth(request)),
  );
  app.get(
    '/clients',
    {
      preHandler: canManage,
      schema: { tags, summary: 'Clients the caller may send requests to', response: { 200: RequestClientsSchema, ...E } },
    },
    async (request) => findRequestClients(deps, requireAuth(request)),
  );
  app.get(
    '/templates',
    { preHandler: canManage, schema: { tags, summary: 'Request templates', response: { 200: RequestTemplatesSchema, ...E } } },
    async () => getTemplates(deps),
  );
  app.post(
    '/templates',
    {
      preHandler: canEditTemplates,
      schema: { tags, summary: 'Add a template', body: TemplateBodySchema, response: { 201: RequestTemplateSchema, ...E } },
    },
    async (request, reply) => reply.code(201).send(await addTemplate(deps, request.body)),
  );
  app.put(
    '/templates/:id',
    {
      preHandler: canEditTemplates,
      schema: {
        tags,
        summary: 'Change a template',
        params: IdParams,
        body: TemplateBodySchema,
        response: { 200: RequestTemplateSchema, ...E },
      },
    },
    async (request) => changeTemplate(deps, request.params.id, request.body),
  );
  app.delete(
    '/templates/:id',
    { preHandler: canEditTemplates, schema: { tags, summary: 'Delete a template', params: IdParams, response: { 200: OkSchema, ...E } } },
    async (request) => removeTemplate(deps, request.params.id),
  );
  app.get(
    '/threads/unread',
    {
      preHandler: canManage,
      schema: {
        tags,
        summary: 'Threads with client messages the practice has not read (My work)',
        response: { 200: UnreadThreadsSchema, ...E },
      },
    },
    async (request) => findUnreadThreads(deps, requireAuth(request)),
  );
  app.get(
    '/threads/:clientId',
    {
      preHandler: canView,
      schema: {
        tags,
        summary: "A client's secure message thread (read marks it read)",
        params: ClientParams,
        querystring: ThreadQuery,
        response: { 200: ThreadSchema, ...E },
      },
    },
    async (request) => getThread(deps, requireAuth(request), request.params.clientId, { markRead: request.query.mark_read !== false }),
  );
  app.post(
    '/threads/:clientId/messages',
    {
      preHandler: canView,
      bodyLimit: 40 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Write on the thread (attachments filed as documents)',
        params: ClientParams,
        body: PostMessageBodySchema,
        response: { 201: MessageSchema, ...E },
      },
    },
    async (request, reply) => reply.code(201).send(await postMessage(deps, requireAuth(request), request.params.clientId, request.body)),
  );
  app.get(
    '/:id',
    { preHandler: canView, schema: { tags, summary: 'One request', params: IdParams, response: { 200: ClientRequestSchema, ...E } } },
    async (request) => getRequest(deps, requireAuth(request), request.params.id),
  );
  app.post(
    '/:id/items/:itemId/submit',
    {
      preHandler: canView,
      bodyLimit: 8 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Upload, answer or confirm an item',
        params: ItemParams,
        body: SubmitItemBodySchema,
        response: { 200: ClientRequestSchema, ...E },
      },
    },
    async (request) => submitItem(deps, requireAuth(request), request.params.id, request.params.itemId, request.body),
  );
  app.post(
    '/:id/items/:itemId/review',
    {
      preHandler: canManage,
      schema: {
        tags,
        summary: 'Accept an item, or reject it with a reason',
        params: ItemParams,
        body: ReviewItemBodySchema,
        response: { 200: ClientRequestSchema, ...E },
      },
    },
    async (request) => reviewItem(deps, requireAuth(request), request.params.id, request.params.itemId, request.body),
  );
  app.post(
    '/:id/remind',
    {
      preHandler: canManage,
      schema: { tags, summary: 'Send a reminder now (one a day at most)', params: IdParams, response: { 200: OkSchema, ...E } },
    },
    async (request) => remindNow(deps, requireAuth(request), request.params.id),
  );
  app.post(
    '/:id/cancel',
    {
      preHandler: canManage,
      schema: { tags, summary: 'Cancel a request (the chase stops)', params: IdParams, response: { 200: ClientRequestSchema, ...E } },
    },
    async (request) => cancelRequest(deps, requireAuth(request), request.params.id),
  );
}
