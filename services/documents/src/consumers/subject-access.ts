import { enqueueEvent, subscribe, type Runtime } from '@countinghouse/kit';
import { and, eq } from 'drizzle-orm';
import { buffer } from 'node:stream/consumers';
import { clientDocuments, SCHEMA } from '../db/schema.js';
import type { DocumentStorage } from '../adapters/storage/storage.js';

/**
 * records.subject_access_requested (UK GDPR Art. 15, issue 34): the documents this person uploaded for
 * their client, one part per file (an event stays well under the bus's size limit), then the list.
 */
export async function subscribeSubjectAccess(runtime: Runtime, storage: DocumentStorage): Promise<void> {
  await subscribe(runtime, {
    group: 'documents.subject-access',
    schema: SCHEMA,
    types: ['records.subject_access_requested'],
    handler: async (event, tx) => {
      const d = event.data;
      // A person without a sign-in account uploaded nothing (their identity documents are the AML part's, by reference).
      const rows = d.userId
        ? await tx
            .select()
            .from(clientDocuments)
            .where(and(eq(clientDocuments.clientId, d.clientId), eq(clientDocuments.uploadedBy, d.userId)))
        : [];
      const part = (files: Array<{ path: string; base64: string }>, last: boolean) =>
        enqueueEvent(
          tx,
          SCHEMA,
          'documents.subject_access_part',
          { requestId: d.requestId, files, last },
          { actor: event.actor, key: d.requestId },
        );
      for (const r of rows) {
        const { stream } = await storage.read(r.filePath);
        await part([{ path: `files/${r.id.slice(0, 8)}-${r.filename}`, base64: (await buffer(stream)).toString('base64') }], false);
      }
      const list = rows.map((r) => ({
        id: r.id,
        filename: r.filename,
        document_type: r.documentType,
        description: r.description,
        file_size: r.fileSize,
        uploaded_at: r.createdAt.toISOString(),
      }));
      await part(
        d.userId ? [{ path: 'documents.json', base64: Buffer.from(JSON.stringify(list, null, 2), 'utf8').toString('base64') }] : [],
        true,
      );
    },
  });
}
