import { AppError, enqueueEvent, requireAuth, requireRole, type App, type Db, type OutboxRelay, type Principal } from '@countinghouse/kit';
import {
  AML_EVIDENCE_DOCUMENT_TYPE,
  AccessLogSchema,
  DirectoryListSchema,
  DirectoryQuerySchema,
  UPLOAD_DOCUMENT_TYPE_VALUES,
  DocumentListQuerySchema,
  DocumentListSchema,
  DocumentSummaryQuerySchema,
  DocumentSummarySchema,
  ClientDocumentSchema,
  LIMITS,
  MAX_DESCRIPTION_LENGTH,
  MESSAGES,
  rolesFor,
  UPLOAD_FIELDS,
  EDGE_MESSAGES,
  isSafeLine,
  isSafeText,
  UploadReplySchema,
  ViewLinkSchema,
  type ClientDocument,
  type DocumentType,
} from '@countinghouse/proto';
import type { MultipartFile } from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import {
  accessLogOf,
  findClient,
  findDocument,
  listDirectory,
  listDocuments,
  logAccess,
  ownClients,
  searchText,
  summarise,
  toDocument,
  type DirectoryRow,
  type DocumentRow,
} from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { amlEvidenceScopeOf, scopeOf } from '../domain/access.js';
import { cleanFilename, CONTENT_TYPE, FileInspector, STORED_EXTENSION, type CheckFailure } from '../domain/file-check.js';
import { contentDisposition, signViewLink } from '../domain/signed-links.js';
import { storageKey, type DocumentStorage } from '../storage/storage.js';

const ErrorRef = Type.Ref('ErrorBody');
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export interface DocumentRoutesDeps {
  db: Db;
  relay: OutboxRelay;
  storage: DocumentStorage;
  linkSecret: string | Buffer;
  /** Seconds since the epoch; tests move the clock. */
  nowSeconds: () => number;
}

const notFound = () => new AppError('NOT_FOUND', 'Document not found');
const missingInformation = () =>
  new AppError('VALIDATION_FAILED', MESSAGES.missingInformation, [
    { path: UPLOAD_FIELDS.documentType, message: MESSAGES.missingInformationTitle },
  ]);

function refusal(f: CheckFailure): AppError {
  return new AppError(f.code, f.message);
}

/** Read a part to its end without keeping it: the next part (and the reply) can only come after. */
async function drain(stream: Readable): Promise<void> {
  for await (const _chunk of stream) {
    // discarded
  }
}

function who(p: Principal) {
  return { kind: p.kind, id: p.id, name: p.name || p.id };
}

export function documentRoutes(app: App, deps: DocumentRoutesDeps) {
  const { db, storage } = deps;

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
    async (request) => {
      const q = request.query;
      const { documents, total, totalExact } = await listDocuments(db, scopeOf(requireAuth(request)), q);
      return { documents, total, total_exact: totalExact, page: q.page, page_size: q.page_size };
    },
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
    async (request) => {
      const { client_id } = request.query;
      return summarise(db, scopeOf(requireAuth(request)), client_id);
    },
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
    async (request) => {
      const { search, limit } = request.query;
      return { clients: await listDirectory(db, scopeOf(requireAuth(request)), search, limit) };
    },
  );

  app.get(
    '/:id',
    {
      preHandler: requireRole(rolesFor('documents.view')),
      schema: { tags: ['documents'], summary: 'One document', params: IdParams, response: { 200: ClientDocumentSchema, 404: ErrorRef } },
    },
    async (request) => {
      const row = await findDocument(db, scopeOf(requireAuth(request)), request.params.id, {
        amlEvidence: amlEvidenceScopeOf(requireAuth(request)),
      });
      if (!row) throw notFound();
      return toDocument(row);
    },
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
    async (request) => {
      const p = requireAuth(request);
      const row = await findDocument(db, scopeOf(p), request.params.id, { amlEvidence: amlEvidenceScopeOf(p) });
      if (!row) throw notFound();
      const exp = deps.nowSeconds() + LIMITS.signedUrlSeconds;
      const sig = signViewLink(deps.linkSecret, row.id, exp);
      // The link is opened without a session; handing it out is the act that is logged.
      await logAccess(db, { documentId: row.id, action: 'view', principal: who(p), ip: request.ip, userAgent: ua(request) });
      return { url: `/api/documents/files/${row.id}?exp=${exp}&sig=${sig}`, expires_at: new Date(exp * 1000).toISOString() };
    },
  );

  app.get(
    '/:id/download',
    {
      preHandler: requireRole(rolesFor('documents.view')),
      schema: { tags: ['documents'], summary: 'Download the file under its original name', params: IdParams, response: { 404: ErrorRef } },
    },
    async (request, reply) => {
      const p = requireAuth(request);
      const row = await findDocument(db, scopeOf(p), request.params.id, { amlEvidence: amlEvidenceScopeOf(p) });
      if (!row) throw notFound();
      const file = await openFile(storage, row);
      await logAccess(db, { documentId: row.id, action: 'download', principal: who(p), ip: request.ip, userAgent: ua(request) });
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
    async (request) => {
      const row = await findDocument(db, { all: true }, request.params.id);
      if (!row) throw notFound();
      return { entries: await accessLogOf(db, row.id) };
    },
  );

  app.post(
    '/',
    {
      preHandler: requireRole(rolesFor('documents.upload')),
      schema: {
        tags: ['documents'],
        summary:
          'Upload files (multipart: client_id, document_type, description, then files), one after another; the first failure stops the rest',
        consumes: ['multipart/form-data'],
        response: { 201: UploadReplySchema, 400: ErrorRef, 404: ErrorRef, 413: ErrorRef, 415: ErrorRef },
      },
    },
    async (request, reply) => {
      const p = requireAuth(request);
      const scope = scopeOf(p);
      const fields: { clientId?: string; documentType?: string; description: string | null } = { description: null };
      let target: DirectoryRow | null = null;
      let failure: unknown = null;
      let sawFile = false;
      const stored: ClientDocument[] = [];

      for await (const part of request.parts()) {
        if (part.type === 'field') {
          // Fields must precede the files; later ones cannot change files already stored.
          if (sawFile) continue;
          const v = typeof part.value === 'string' ? part.value.trim() : '';
          // (the text rule every JSON field keeps: no NUL or other control character; tab and new lines in the description)
          if (!(part.fieldname === UPLOAD_FIELDS.description ? isSafeText(v) : isSafeLine(v))) {
            failure ??= new AppError('VALIDATION_FAILED', MESSAGES.validationFailed, [
              { path: part.fieldname, message: EDGE_MESSAGES.controlCharacters },
            ]);
            continue;
          }
          if (part.fieldname === UPLOAD_FIELDS.clientId) fields.clientId = v || undefined;
          else if (part.fieldname === UPLOAD_FIELDS.documentType) fields.documentType = v || undefined;
          else if (part.fieldname === UPLOAD_FIELDS.description) fields.description = v.slice(0, MAX_DESCRIPTION_LENGTH) || null;
          continue;
        }
        if (failure || !part.filename) {
          // After the first failure the rest is read and thrown away, so the answer reaches the browser.
          // (A form's empty file input arrives as a part with no name.)
          await drain(part.file);
          continue;
        }
        if (!sawFile) {
          sawFile = true;
          try {
            if (fields.documentType === AML_EVIDENCE_DOCUMENT_TYPE) {
              // Identity evidence for an AML file: only those preparing AML files, for a named client.
              const evidenceScope = amlEvidenceScopeOf(p);
              if (!evidenceScope?.all) throw new AppError('FORBIDDEN', MESSAGES.noAccessToArea);
              if (!fields.clientId) throw new AppError('NOT_FOUND', 'Client not found');
              target = await resolveClient(db, p, evidenceScope, fields.clientId);
            } else {
              if (!fields.documentType || !(UPLOAD_DOCUMENT_TYPE_VALUES as string[]).includes(fields.documentType))
                throw missingInformation();
              target = await resolveClient(db, p, scope, fields.clientId);
            }
          } catch (err) {
            failure = err;
            await drain(part.file);
            continue;
          }
        }
        try {
          stored.push(await storeOne(part, target!, fields.documentType as DocumentType, fields.description, p, request));
        } catch (err) {
          failure = err;
        }
      }
      if (failure) throw failure;
      if (!sawFile) throw missingInformation();
      reply.status(201);
      return { success: true, message: MESSAGES.uploadSuccessful(stored.length), documents: stored };
    },
  );

  /** Stream one file to storage, checking it on the way; the row exists only once the file does. */
  async function storeOne(
    part: MultipartFile,
    client: DirectoryRow,
    documentType: DocumentType,
    description: string | null,
    p: Principal,
    request: FastifyRequest,
  ): Promise<ClientDocument> {
    const filename = cleanFilename(part.filename);
    const inspector = new FileInspector(filename, part.mimetype);
    if (inspector.failure) {
      await drain(part.file);
      throw refusal(inspector.failure);
    }
    // The kind comes from the name and the declared type, so the key is known before the first byte.
    const key = storageKey(client.client_id, documentType, STORED_EXTENSION[inspector.kind!]);
    const writer = await storage.createWriter(key);
    let committed: string | null = null;
    try {
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        if (!inspector.push(chunk)) continue; // refused: keep reading, stop writing
        await writer.write(chunk);
      }
      const failed = inspector.finish(part.file.truncated);
      if (failed) throw refusal(failed);
      const kind = inspector.kind!;
      await writer.commit();
      committed = key;
      const row = await db.transaction(async (tx) => {
        const res = await tx.execute<DocumentRow & Record<string, unknown>>(sql`
          insert into documents.client_documents
            (client_id, filename, document_type, file_path, file_size, content_type, description, uploaded_by, status, search_text)
          values (${client.client_id}, ${filename}, ${documentType}, ${key}, ${inspector.size}, ${CONTENT_TYPE[kind]}, ${description},
                  ${p.id}, 'active', ${searchText(filename, description, client.company_name, client.contact_email)})
          returning *, ${client.company_name}::text as company_name, ${client.contact_email}::text as contact_email`);
        const inserted = res.rows[0]!;
        await logAccess(tx, { documentId: inserted.id, action: 'upload', principal: who(p), ip: request.ip, userAgent: ua(request) });
        await enqueueEvent(
          tx,
          SCHEMA,
          'documents.document_uploaded',
          {
            documentId: inserted.id,
            clientId: client.client_id,
            filename,
            documentType,
            fileSize: inspector.size,
            uploadedBy: p.id,
          },
          { actor: { kind: p.kind, id: p.id }, key: client.client_id },
        );
        return inserted;
      });
      return toDocument(row);
    } catch (err) {
      await writer.abort();
      if (committed) await storage.remove(committed).catch(() => {});
      throw err;
    }
  }
}

/** The client an upload is for: the one named (if the caller may act for it), else the caller's own business. */
async function resolveClient(db: Db, p: Principal, scope: ReturnType<typeof scopeOf>, clientId: string | undefined): Promise<DirectoryRow> {
  if (clientId) {
    const c = await findClient(db, scope, clientId);
    if (!c) throw new AppError('NOT_FOUND', 'Client not found');
    return c;
  }
  if (p.kind === 'user') {
    const own = await ownClients(db, p.id);
    if (own.length === 1) return own[0]!;
  }
  throw new AppError('VALIDATION_FAILED', 'Please choose the client these files belong to.', [
    { path: UPLOAD_FIELDS.clientId, message: 'is required' },
  ]);
}

function ua(request: FastifyRequest): string | null {
  const h = request.headers['user-agent'];
  return typeof h === 'string' ? h : null;
}

export async function openFile(storage: DocumentStorage, row: DocumentRow) {
  try {
    return await storage.read(row.file_path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new AppError('GONE', 'This file is no longer available.');
    throw err;
  }
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
