import { AppError, clientScopeOf, enqueueEvent, type ClientScope, type Principal } from '@countinghouse/kit';
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
import { amlEvidenceScopeOf, CLIENT_SCOPE } from '../domain/access.js';
import { cleanFilename, CONTENT_TYPE, FileInspector, STORED_EXTENSION, type CheckFailure } from '../domain/file-check.js';
import { storageKey } from '../adapters/storage/storage.js';
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
 * Store the uploaded files, all or nothing (issue 32): each is checked and written to storage on the
 * way; the first failure stops the rest (read and thrown away, so the answer reaches the browser),
 * removes every file this batch already wrote, and is thrown. Only when every file is in does one
 * transaction record them all (rows, access log, events), so a failed batch leaves no row, no object
 * and no event.
 */
export async function uploadDocuments(deps: DocumentsDeps, p: Principal, input: UploadInput) {
  const scope = clientScopeOf(p, CLIENT_SCOPE);
  const fields: { clientId?: string; documentType?: string; description: string | null } = { description: null };
  let target: { client: DirectoryRow; documentType: string } | null = null;
  let failure: unknown = null;
  let sawFile = false;
  const written: WrittenFile[] = [];
  const removeWritten = async () => {
    await Promise.all(written.map((w) => deps.storage.remove(w.key).catch(() => {})));
  };

  try {
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
        written.push(await writeOne(deps, part, target!.client, target!.documentType));
      } catch (err) {
        failure = err;
      }
    }
  } catch (err) {
    // The request itself failed part-way (too many files, a broken stream): nothing of it is kept.
    await removeWritten();
    throw err;
  }
  if (failure) {
    await removeWritten();
    throw failure;
  }
  if (!sawFile) throw missingInformation();
  let stored: ClientDocument[];
  try {
    stored = await recordAll(deps, written, target!.client, target!.documentType, fields.description, p, input.origin);
  } catch (err) {
    await removeWritten();
    throw err;
  }
  return { success: true, message: MESSAGES.uploadSuccessful(stored.length), documents: stored };
}

/** A file in storage whose row is not written yet. */
interface WrittenFile {
  key: string;
  filename: string;
  size: number;
  contentType: string;
}

/** Record a whole batch in one transaction: its rows, their access-log lines and their events. */
async function recordAll(
  deps: DocumentsDeps,
  files: readonly WrittenFile[],
  client: DirectoryRow,
  documentType: string,
  description: string | null,
  p: Principal,
  origin: RequestOrigin,
): Promise<ClientDocument[]> {
  const rows = await deps.db.transaction(async (tx) => {
    const out = [];
    for (const f of files) {
      const inserted = await insertDocument(tx, {
        client,
        filename: f.filename,
        documentType,
        key: f.key,
        size: f.size,
        contentType: f.contentType,
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
          filename: f.filename,
          documentType,
          fileSize: f.size,
          uploadedBy: p.id,
        },
        { actor: { kind: p.kind, id: p.id }, key: client.client_id },
      );
      out.push(inserted);
    }
    return out;
  });
  return rows.map(toDocument);
}

/** Stream one file to storage, checking it on the way; its row is written with the rest of the batch. */
async function writeOne(deps: DocumentsDeps, part: MultipartFile, client: DirectoryRow, documentType: string): Promise<WrittenFile> {
  const { storage } = deps;
  const filename = cleanFilename(part.filename);
  const inspector = new FileInspector(filename, part.mimetype);
  if (inspector.failure) {
    await drain(part.file);
    throw refusal(inspector.failure);
  }
  // The kind comes from the name and the declared type, so the key is known before the first byte.
  const key = storageKey(client.client_id, documentType, STORED_EXTENSION[inspector.kind!]);
  const writer = await storage.createWriter(key);
  try {
    for await (const chunk of part.file) {
      if (!inspector.push(chunk)) continue; // refused: keep reading, stop writing
      await writer.write(chunk);
    }
    const failed = inspector.finish(part.file.truncated);
    if (failed) throw refusal(failed);
    await writer.commit();
    return { key, filename, size: inspector.size, contentType: CONTENT_TYPE[inspector.kind!] };
  } catch (err) {
    await writer.abort();
    throw err;
  }
}

/** The client an upload is for: the one named (if the caller may act for it), else the caller's own business. */
async function resolveClient(
  deps: Pick<DocumentsDeps, 'db'>,
  p: Principal,
  scope: ClientScope,
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
