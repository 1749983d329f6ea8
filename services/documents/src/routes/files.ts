import { AppError, type App, type Db } from '@countinghouse/kit';
import { SignedFileQuerySchema } from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { findDocument } from '../db/queries.js';
import { checkViewLink } from '../domain/signed-links.js';
import type { DocumentStorage } from '../storage/storage.js';
import { openFile, sendFile } from './documents.js';

const ErrorRef = Type.Ref('ErrorBody');

/**
 * The signed view address. It needs no session (it opens in a new tab): the signature is the
 * authority, bound to one document id and an expiry 60 seconds after it was handed out.
 */
export function fileRoutes(app: App, deps: { db: Db; storage: DocumentStorage; linkSecret: string | Buffer; nowSeconds: () => number }) {
  app.get(
    '/files/:id',
    {
      schema: {
        tags: ['documents'],
        summary: 'Open a file through a signed view link',
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        querystring: SignedFileQuerySchema,
        response: { 400: ErrorRef, 403: ErrorRef, 404: ErrorRef, 410: ErrorRef },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { exp, sig } = request.query;
      const check = checkViewLink(deps.linkSecret, id, exp, sig, deps.nowSeconds());
      if (check === 'tampered') throw new AppError('FORBIDDEN', 'This link is not valid.');
      if (check === 'expired') throw new AppError('GONE', 'This link has expired. Open the document again for a new link.');
      const row = await findDocument(deps.db, { all: true }, id);
      if (!row) throw new AppError('NOT_FOUND', 'Document not found');
      return sendFile(reply, row, await openFile(deps.storage, row), 'inline');
    },
  );
}
