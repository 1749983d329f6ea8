import { enqueueEvent, idempotent, type ConsumerRuntime, type Db, type EventHandler } from '@countinghouse/kit';
import { AML_EVIDENCE_DOCUMENT_TYPE, EraseRequestedSchema, TOPICS, type EventData } from '@countinghouse/proto';
import { Value } from '@sinclair/typebox/value';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { SCHEMA } from '../db/schema.js';
import type { DocumentStorage } from '../adapters/storage/storage.js';

export const RETENTION_CONSUMER = 'documents.retention';
/** Signed engagement letters stored here (engagement's PDFs): erased with the engagement letters. */
const ENGAGEMENT_TYPE = 'engagement';

/**
 * records.erase_requested (issue 34): the client's documents past their retention period go. "documents":
 * everything uploaded but the signed letters and the AML evidence (those follow their own record types:
 * the evidence goes when the AML file does, by aml.file_deleted); "engagement_letters": the signed PDFs.
 * Rows and the answer (documents.records_erased) commit together; the files go after the commit (a row is
 * never left without its file), as for the AML evidence.
 */
export function retentionHandler(db: Db, storage: DocumentStorage, logger: Logger): EventHandler {
  const deleteRows = (removed: string[], d: EventData<'records.erase_requested'>) =>
    idempotent(db, SCHEMA, RETENTION_CONSUMER, async (envelope, tx) => {
      if (d.recordType !== 'documents' && d.recordType !== 'engagement_letters') return;
      const which =
        d.recordType === 'engagement_letters'
          ? sql`document_type = ${ENGAGEMENT_TYPE}`
          : sql`document_type not in (${ENGAGEMENT_TYPE}, ${AML_EVIDENCE_DOCUMENT_TYPE})`;
      const dated = d.recordedBefore ? sql`and created_at < (${d.recordedBefore}::date::timestamp at time zone 'Europe/London')` : sql``;
      const res = await tx.execute<{ id: string; filename: string; file_path: string }>(sql`
        delete from documents.client_documents
        where client_id = ${d.clientId} and ${which} ${dated}
        returning id::text, filename, file_path`);
      removed.push(...res.rows.map((r) => r.file_path));
      await enqueueEvent(
        tx,
        SCHEMA,
        'documents.records_erased',
        {
          runId: d.runId,
          clientId: d.clientId,
          recordType: d.recordType,
          items: res.rows.map((r) => ({ id: r.id, label: r.filename.slice(0, 300), files: 1 })),
        },
        { actor: envelope.actor, key: d.clientId },
      );
    });
  return async (envelope) => {
    if (envelope.type !== 'records.erase_requested') return;
    if (!Value.Check(EraseRequestedSchema, envelope.data)) {
      logger.error({ eventId: envelope.id }, 'bad records.erase_requested skipped');
      return;
    }
    const removed: string[] = [];
    await deleteRows(removed, envelope.data)(envelope);
    for (const key of removed) await storage.remove(key).catch((err) => logger.warn({ err, key }, 'document file not removed'));
  };
}

/** Its own subscription (not subscribe()): the files go after the rows' transaction has committed. */
export async function subscribeRetention(runtime: ConsumerRuntime, storage: DocumentStorage): Promise<void> {
  await runtime.bus.subscribe({
    group: RETENTION_CONSUMER,
    topics: [TOPICS.records],
    handler: retentionHandler(runtime.db, storage, runtime.logger),
  });
}
