import { subscribe, type Runtime } from '@countinghouse/kit';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { logAccess, searchText } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import type { DocumentStorage } from '../adapters/storage/storage.js';

export const REQUEST_FILES_CONSUMER = 'documents.request-files';

/**
 * requests.item_submitted and requests.message_posted → each file the client (or the practice) sent
 * against a request item or on the message thread, filed as the client's document with the item's
 * type, under the id the requests service chose. The same path as signed engagement letters: the
 * bytes travel once, in the event; a redelivery finds the id and adds nothing, a retry after a failed
 * commit writes the same key again.
 */
export async function subscribeRequestFiles(runtime: Runtime, storage: DocumentStorage): Promise<void> {
  const logger = runtime.logger;
  await subscribe(runtime, {
    group: REQUEST_FILES_CONSUMER,
    schema: SCHEMA,
    types: ['requests.item_submitted', 'requests.message_posted'],
    handler: async (envelope, tx) => {
      const d = envelope.data;
      const uploadedBy = envelope.type === 'requests.item_submitted' ? envelope.data.uploadedBy : envelope.data.authorId;
      for (const f of d.documents) {
        const bytes = Buffer.from(f.base64, 'base64');
        if (createHash('sha256').update(bytes).digest('hex') !== f.sha256) {
          logger.error({ eventId: envelope.id, documentId: f.documentId }, 'request file does not match its SHA-256: skipped');
          continue;
        }
        const exists = await tx.execute(sql`select 1 from documents.client_documents where id = ${f.documentId}`);
        if (exists.rows.length > 0) continue;
        const ext = f.filename.includes('.') ? f.filename.slice(f.filename.lastIndexOf('.') + 1).replace(/[^A-Za-z0-9]/g, '') : 'bin';
        const key = `${d.clientId.replace(/[^A-Za-z0-9_-]/g, '_')}/${f.documentType}/${f.documentId}.${ext || 'bin'}`;
        const writer = await storage.createWriter(key);
        try {
          await writer.write(bytes);
          await writer.commit();
        } catch (err) {
          await writer.abort();
          throw err;
        }
        const dir = await tx.execute<{ company_name: string; contact_email: string }>(
          sql`select company_name, contact_email from documents.client_directory where client_id = ${d.clientId}`,
        );
        await tx.execute(sql`
        insert into documents.client_documents
          (id, client_id, filename, document_type, file_path, file_size, content_type, description, uploaded_by, status, search_text, created_at)
        values (${f.documentId}, ${d.clientId}, ${f.filename}, ${f.documentType}, ${key}, ${bytes.length}, ${f.contentType}, ${f.description},
                ${uploadedBy}, 'active',
                ${searchText(f.filename, f.description, dir.rows[0]?.company_name ?? '', dir.rows[0]?.contact_email ?? '')}, ${envelope.occurredAt})
        on conflict (id) do nothing`);
        await logAccess(tx, {
          documentId: f.documentId,
          action: 'upload',
          principal: { kind: 'user', id: uploadedBy, name: 'Client request' },
          ip: null,
          userAgent: envelope.type === 'requests.item_submitted' ? 'uploaded against a client request' : 'attached to a secure message',
        });
      }
    },
  });
}
