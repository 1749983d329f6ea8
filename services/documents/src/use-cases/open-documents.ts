import { AppError, auditActor, enqueueEvent, type Principal } from '@countinghouse/kit';
import { AML_EVIDENCE_DOCUMENT_TYPE, LIMITS } from '@countinghouse/proto';
import { findDocument, logAccess, type DocumentRow } from '../db/queries.js';
import { checkViewLink, signViewLink } from '../domain/signed-links.js';
import { SCHEMA } from '../db/schema.js';
import type { DocumentStorage } from '../adapters/storage/storage.js';
import type { DocumentsDeps, RequestOrigin } from './deps.js';
import { documentNotFound, findVisibleDocument } from './read-documents.js';

export function who(p: Principal) {
  return { kind: p.kind, id: p.id, name: p.name || p.id };
}

function isMissingFile(err: unknown): boolean {
  return err instanceof Error && 'code' in err && err.code === 'ENOENT';
}

/**
 * The practice-wide audit trail records every view and download (issue 34), with the address; identity
 * documents (AML evidence, an identity document) are named as such.
 */
async function recordViewed(deps: DocumentsDeps, p: Principal, row: DocumentRow) {
  const identity = row.document_type === AML_EVIDENCE_DOCUMENT_TYPE || row.document_type === 'identity_document';
  await enqueueEvent(
    deps.db,
    SCHEMA,
    'documents.record_viewed',
    { clientId: row.client_id, record: identity ? 'identity_documents' : 'document', recordId: row.id, label: row.filename.slice(0, 200) },
    { actor: auditActor(p), key: row.client_id },
  );
}

/** The stored file of a document; 410 when it is gone from storage. */
export async function openFile(storage: DocumentStorage, row: DocumentRow) {
  try {
    return await storage.read(row.file_path);
  } catch (err) {
    if (isMissingFile(err)) throw new AppError('GONE', 'This file is no longer available.');
    throw err;
  }
}

/** A signed link to view the file, valid 60 seconds, bound to this document. */
export async function requestViewLink(deps: DocumentsDeps, principal: Principal, input: { id: string; origin: RequestOrigin }) {
  const row = await findVisibleDocument(deps, principal, input.id);
  const exp = deps.nowSeconds() + LIMITS.signedUrlSeconds;
  const sig = signViewLink(deps.linkSecret, row.id, exp);
  // The link is opened without a session; handing it out is the act that is logged.
  await logAccess(deps.db, { documentId: row.id, action: 'view', principal: who(principal), ...input.origin });
  await recordViewed(deps, principal, row);
  return { url: `/api/documents/files/${row.id}?exp=${exp}&sig=${sig}`, expires_at: new Date(exp * 1000).toISOString() };
}

/** The file to download under its original name; the download is logged. */
export async function downloadDocument(deps: DocumentsDeps, principal: Principal, input: { id: string; origin: RequestOrigin }) {
  const row = await findVisibleDocument(deps, principal, input.id);
  const file = await openFile(deps.storage, row);
  await logAccess(deps.db, { documentId: row.id, action: 'download', principal: who(principal), ...input.origin });
  await recordViewed(deps, principal, row);
  return { row, file };
}

/**
 * The file behind a signed view link. It needs no session (it opens in a new tab): the signature is the
 * authority, bound to one document id and an expiry 60 seconds after it was handed out.
 */
export async function openSignedFile(deps: DocumentsDeps, input: { id: string; exp: number; sig: string }) {
  const check = checkViewLink(deps.linkSecret, input.id, input.exp, input.sig, deps.nowSeconds());
  if (check === 'tampered') throw new AppError('FORBIDDEN', 'This link is not valid.');
  if (check === 'expired') throw new AppError('GONE', 'This link has expired. Open the document again for a new link.');
  const row = await findDocument(deps.db, { all: true }, input.id);
  if (!row) throw documentNotFound();
  return { row, file: await openFile(deps.storage, row) };
}
