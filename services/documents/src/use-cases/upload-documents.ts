import { AppError, enqueueEvent, type Principal } from '@countinghouse/kit';
import {
  AML_EVIDENCE_DOCUMENT_TYPE,
  EDGE_MESSAGES,
  isSafeLine,
  isSafeText,
  MAX_DESCRIPTION_LENGTH,
  MESSAGES,
  UPLOAD_DOCUMENT_TYPE_VALUES,
  UPLOAD_FIELDS,
  type ClientDocument,
} from '@countinghouse/proto';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { Readable } from 'node:stream';
import { findClient, insertDocument, logAccess, ownClients, toDocument, type DirectoryRow } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { amlEvidenceScopeOf, scopeOf, type DocumentScope } from '../domain/access.js';
import { cleanFilename, CONTENT_TYPE, FileInspector, STORED_EXTENSION, type CheckFailure } from '../domain/file-check.js';
import { storageKey } from '../storage/storage.js';
import type { DocumentsDeps, RequestOrigin } from './deps.js';
import { who } from './open-documents.js';

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

/** A type a person may upload, as the list of them spells it, or undefined. */
function uploadType(value: string | undefined): string | undefined {
  return UPLOAD_DOCUMENT_TYPE_VALUES.find((t) => t === value);
}

export interface UploadInput {
  /** The multipart parts as they arrive: client_id, document_type, description, then the files. */
  parts: AsyncIterable<Multipart>;
  origin: RequestOrigin;
}

/**
 * Store the uploaded files one after another, each checked on the way; the first failure stops the
 * rest (which are read and thrown away, so the answer reaches the browser) and is thrown.
 */
export async function uploadDocuments(deps: DocumentsDeps, p: Principal, input: UploadInput) {
  const scope = scopeOf(p);
  const fields: { clientId?: string; documentType?: string; description: string | null } = { description: null };
  let target: { client: DirectoryRow; documentType: string } | null = null;
  let failure: unknown = null;
  let sawFile = false;
  const stored: ClientDocument[] = [];

  for await (const part of input.parts) {
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
          target = { client: await resolveClient(deps, p, evidenceScope, fields.clientId), documentType: AML_EVIDENCE_DOCUMENT_TYPE };
        } else {
          const documentType = uploadType(fields.documentType);
          if (!documentType) throw missingInformation();
          target = { client: await resolveClient(deps, p, scope, fields.clientId), documentType };
        }
      } catch (err) {
        failure = err;
        await drain(part.file);
        continue;
      }
    }
    try {
      stored.push(await storeOne(deps, part, target!.client, target!.documentType, fields.description, p, input.origin));
    } catch (err) {
      failure = err;
    }
  }
  if (failure) throw failure;
  if (!sawFile) throw missingInformation();
  return { success: true, message: MESSAGES.uploadSuccessful(stored.length), documents: stored };
}

/** Stream one file to storage, checking it on the way; the row exists only once the file does. */
async function storeOne(
  deps: DocumentsDeps,
  part: MultipartFile,
  client: DirectoryRow,
  documentType: string,
  description: string | null,
  p: Principal,
  origin: RequestOrigin,
): Promise<ClientDocument> {
  const { db, storage } = deps;
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
    for await (const chunk of part.file) {
      if (!inspector.push(chunk)) continue; // refused: keep reading, stop writing
      await writer.write(chunk);
    }
    const failed = inspector.finish(part.file.truncated);
    if (failed) throw refusal(failed);
    const kind = inspector.kind!;
    await writer.commit();
    committed = key;
    const row = await db.transaction(async (tx) => {
      const inserted = await insertDocument(tx, {
        client,
        filename,
        documentType,
        key,
        size: inspector.size,
        contentType: CONTENT_TYPE[kind],
        description,
        uploadedBy: p.id,
      });
      await logAccess(tx, { documentId: inserted.id, action: 'upload', principal: who(p), ...origin });
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

/** The client an upload is for: the one named (if the caller may act for it), else the caller's own business. */
async function resolveClient(
  deps: Pick<DocumentsDeps, 'db'>,
  p: Principal,
  scope: DocumentScope,
  clientId: string | undefined,
): Promise<DirectoryRow> {
  if (clientId) {
    const c = await findClient(deps.db, scope, clientId);
    if (!c) throw new AppError('NOT_FOUND', 'Client not found');
    return c;
  }
  if (p.kind === 'user') {
    const own = await ownClients(deps.db, p.id);
    if (own.length === 1) return own[0]!;
  }
  throw new AppError('VALIDATION_FAILED', 'Please choose the client these files belong to.', [
    { path: UPLOAD_FIELDS.clientId, message: 'is required' },
  ]);
}
