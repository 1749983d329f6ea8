import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  AccessLogSchema,
  ClientDocumentSchema,
  DirectoryListSchema,
  DirectoryQuerySchema,
  DocumentListQuerySchema,
  DocumentListSchema,
  DocumentSummaryQuerySchema,
  DocumentSummarySchema,
  rolesFor,
  UploadReplySchema,
  ViewLinkSchema,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { DocumentRow } from '../db/queries.js';
import { contentDisposition } from '../domain/signed-links.js';
import type { DocumentsDeps, RequestOrigin } from '../use-cases/deps.js';
import { downloadDocument, requestViewLink } from '../use-cases/open-documents.js';
import { findDocuments, findUploadClients, getAccessLog, getDocument, getDocumentSummary } from '../use-cases/read-documents.js';
import { uploadDocuments } from '../use-cases/upload-documents.js';

const ErrorRef = Type.Ref('ErrorBody');
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export function originOf(request: FastifyRequest): RequestOrigin {
  const h = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof h === 'string' ? h : null };
}

export function documentRoutes(app: App, deps: DocumentsDeps) {
  app.get(
    '/',
    {
      preHandler: requireRole(rolesFor('documents.view')),
      schema: {
        tags: ['documents'],
        summary: 'Client documents the caller may see, newest first, searched and filtered, one page',
        querystring: DocumentListQuerySchema,
        response: { 200: DocumentListSchema, 400: ErrorRef, 401: ErrorRef },
      },
    },
    async (request) => findDocuments(deps, requireAuth(request), request.query),
  );

  app.get(
    '/summary',
    {
      preHandler: requireRole(rolesFor('documents.view')),
      schema: {
        tags: ['documents'],
        summary: 'Summary cards: Total Documents, Active, Pending, Clients (under the same access rule)',
        querystring: DocumentSummaryQuerySchema,
        response: { 200: DocumentSummarySchema, 401: ErrorRef },
      },
    },
    async (request) => getDocumentSummary(deps, requireAuth(request), request.query),
  );

  app.get(
    '/clients',
    {
      preHandler: requireRole(rolesFor('documents.upload')),
      schema: {
        tags: ['documents'],
        summary: 'Clients the caller may upload for (the uploader’s client pick)',
        querystring: DirectoryQuerySchema,
        response: { 200: DirectoryListSchema, 401: ErrorRef },
      },
    },
    async (request) => findUploadClients(deps, requireAuth(request), request.query),
  );

  app.get(
    '/:id',
    {
      preHandler: requireRole(rolesFor('documents.view')),
      schema: { tags: ['documents'], summary: 'One document', params: IdParams, response: { 200: ClientDocumentSchema, 404: ErrorRef } },
    },
    async (request) => getDocument(deps, requireAuth(request), request.params),
  );

  app.post(
    '/:id/view-link',
    {
      preHandler: requireRole(rolesFor('documents.view')),
      schema: {
        tags: ['documents'],
        summary: 'A signed link to view the file, valid 60 seconds, bound to this document',
        params: IdParams,
        response: { 200: ViewLinkSchema, 404: ErrorRef },
      },
    },
    async (request) => requestViewLink(deps, requireAuth(request), { id: request.params.id, origin: originOf(request) }),
  );

  app.get(
    '/:id/download',
    {
      preHandler: requireRole(rolesFor('documents.view')),
      schema: { tags: ['documents'], summary: 'Download the file under its original name', params: IdParams, response: { 404: ErrorRef } },
    },
    async (request, reply) => {
      const { row, file } = await downloadDocument(deps, requireAuth(request), { id: request.params.id, origin: originOf(request) });
      return sendFile(reply, row, file, 'attachment');
    },
  );

  app.get(
    '/:id/access-log',
    {
      preHandler: requireRole(rolesFor('documents.access_log')),
      schema: {
        tags: ['documents'],
        summary: 'Who viewed, downloaded or uploaded this document (administrators only)',
        params: IdParams,
        response: { 200: AccessLogSchema, 403: ErrorRef, 404: ErrorRef },
      },
    },
    async (request) => getAccessLog(deps, requireAuth(request), request.params),
  );

  app.post(
    '/',
    {
      preHandler: requireRole(rolesFor('documents.upload')),
      schema: {
        tags: ['documents'],
        summary:
          'Upload files (multipart: client_id, document_type, description, then files), all or nothing: the first failure stops the rest and stores none',
        consumes: ['multipart/form-data'],
        response: { 201: UploadReplySchema, 400: ErrorRef, 404: ErrorRef, 413: ErrorRef, 415: ErrorRef },
      },
    },
    async (request, reply) => {
      const result = await uploadDocuments(deps, requireAuth(request), { parts: request.parts(), origin: originOf(request) });
      reply.status(201);
      return result;
    },
  );
}

export function sendFile(reply: FastifyReply, row: DocumentRow, file: { stream: Readable; size: number }, kind: 'inline' | 'attachment') {
  reply
    .header('content-type', row.content_type)
    .header('content-length', String(file.size))
    .header('content-disposition', contentDisposition(kind, row.filename))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff');
  return reply.send(file.stream);
}
