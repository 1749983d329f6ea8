import type { App } from '@countinghouse/kit';
import { SignedFileQuerySchema } from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type { DocumentsDeps } from '../use-cases/deps.js';
import { openSignedFile } from '../use-cases/open-documents.js';
import { sendFile } from './documents.js';

const ErrorRef = Type.Ref('ErrorBody');

/**
 * The signed view address. It needs no session (it opens in a new tab): the signature is the
 * authority, bound to one document id and an expiry 60 seconds after it was handed out.
 */
export function fileRoutes(app: App, deps: DocumentsDeps) {
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
      const { row, file } = await openSignedFile(deps, { id: request.params.id, ...request.query });
      return sendFile(reply, row, file, 'inline');
    },
  );
}
