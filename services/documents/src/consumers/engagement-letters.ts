import { subscribe, type Runtime } from '@countinghouse/kit';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { logAccess, searchText } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import type { DocumentStorage } from '../adapters/storage/storage.js';

export const ENGAGEMENT_LETTERS_CONSUMER = 'documents.engagement-letters';

/**
 * engagement.letter_signed → the signed PDF as the client's document (type engagement), under the id
 * the engagement service chose, so a redelivery finds it there and adds nothing. The file's key is
 * fixed by that id too: a retry after a failed commit writes the same file again, never a second one.
 * No route changes or deletes a document, so the signed letter stays as it was filed.
 */
export async function subscribeEngagementLetters(runtime: Runtime, storage: DocumentStorage): Promise<void> {
  const logger = runtime.logger;
  await subscribe(runtime, {
    group: ENGAGEMENT_LETTERS_CONSUMER,
    schema: SCHEMA,
    types: ['engagement.letter_signed'],
    handler: async (envelope, tx) => {
      const d = envelope.data;
      const pdf = Buffer.from(d.pdfBase64, 'base64');
      if (createHash('sha256').update(pdf).digest('hex') !== d.pdfSha256) {
        logger.error({ eventId: envelope.id, letterId: d.letterId }, 'signed letter PDF does not match its SHA-256: skipped');
        return;
      }
      const exists = await tx.execute(sql`select 1 from documents.client_documents where id = ${d.documentId}`);
      if (exists.rows.length > 0) return;
      const key = `${d.clientId.replace(/[^A-Za-z0-9_-]/g, '_')}/engagement/${d.documentId}.pdf`;
      const writer = await storage.createWriter(key);
      try {
        await writer.write(pdf);
        await writer.commit();
      } catch (err) {
        await writer.abort();
        throw err;
      }
      const dir = await tx.execute<{ contact_email: string }>(
        sql`select contact_email from documents.client_directory where client_id = ${d.clientId}`,
      );
      const description = `Engagement letter version ${d.version} (${d.packageName}), signed by ${d.signerName}`;
      await tx.execute(sql`
      insert into documents.client_documents
        (id, client_id, filename, document_type, file_path, file_size, content_type, description, uploaded_by, status, search_text, created_at)
      values (${d.documentId}, ${d.clientId}, ${d.filename}, 'engagement', ${key}, ${pdf.length}, 'application/pdf', ${description},
              ${d.uploadedBy ?? 'engagement'}, 'completed',
              ${searchText(d.filename, description, d.clientName, dir.rows[0]?.contact_email ?? '')}, ${d.signedAt})
      on conflict (id) do nothing`);
      await logAccess(tx, {
        documentId: d.documentId,
        action: 'upload',
        principal: { kind: 'user', id: d.uploadedBy ?? 'engagement', name: d.signerName },
        ip: null,
        userAgent: 'engagement letter signed online',
      });
    },
  });
}
