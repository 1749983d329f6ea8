import { AppError, clientScopeOf, type Principal } from '@countinghouse/kit';
import type { DirectoryQuerySchema, DocumentListQuery, DocumentSummaryQuery } from '@countinghouse/proto';
import type { Static } from '@sinclair/typebox';
import { accessLogOf, findDocument, listDirectory, listDocuments, summarise, toDocument, type DocumentRow } from '../db/queries.js';
import { amlEvidenceScopeOf, CLIENT_SCOPE } from '../domain/access.js';
import type { DocumentsDeps } from './deps.js';

export const documentNotFound = () => new AppError('NOT_FOUND', 'Document not found');

/** Client documents the caller may see, newest first, searched and filtered, one page. */
export async function findDocuments(deps: Pick<DocumentsDeps, 'db'>, principal: Principal, q: DocumentListQuery) {
  const { documents, total, totalExact } = await listDocuments(deps.db, clientScopeOf(principal, CLIENT_SCOPE), q);
  return { documents, total, total_exact: totalExact, page: q.page, page_size: q.page_size };
}

/** The summary cards under the same access rule. */
export async function getDocumentSummary(deps: Pick<DocumentsDeps, 'db'>, principal: Principal, q: DocumentSummaryQuery) {
  return summarise(deps.db, clientScopeOf(principal, CLIENT_SCOPE), q.client_id);
}

/** Clients the caller may upload for (the uploader's client pick). */
export async function findUploadClients(deps: Pick<DocumentsDeps, 'db'>, principal: Principal, q: Static<typeof DirectoryQuerySchema>) {
  return { clients: await listDirectory(deps.db, clientScopeOf(principal, CLIENT_SCOPE), q.search, q.limit) };
}

/** One document the caller may see (identity evidence under its own rule), or 404: ids cannot be probed. */
export async function findVisibleDocument(deps: Pick<DocumentsDeps, 'db'>, principal: Principal, id: string): Promise<DocumentRow> {
  const row = await findDocument(deps.db, clientScopeOf(principal, CLIENT_SCOPE), id, { amlEvidence: amlEvidenceScopeOf(principal) });
  if (!row) throw documentNotFound();
  return row;
}

export async function getDocument(deps: Pick<DocumentsDeps, 'db'>, principal: Principal, input: { id: string }) {
  return toDocument(await findVisibleDocument(deps, principal, input.id));
}

/** Who viewed, downloaded or uploaded a document (the route admits administrators only). */
export async function getAccessLog(deps: Pick<DocumentsDeps, 'db'>, _principal: Principal, input: { id: string }) {
  const row = await findDocument(deps.db, { all: true }, input.id);
  if (!row) throw documentNotFound();
  return { entries: await accessLogOf(deps.db, row.id) };
}
