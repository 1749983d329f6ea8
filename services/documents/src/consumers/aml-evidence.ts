import { idempotent, type ConsumerRuntime, type Db, type EventHandler } from '@countinghouse/kit';
import { AML_EVIDENCE_DOCUMENT_TYPE, AmlFileDeletedSchema, TOPICS, type EventData } from '@countinghouse/proto';
import { Value } from '@sinclair/typebox/value';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { SCHEMA } from '../db/schema.js';
import type { DocumentStorage } from '../adapters/storage/storage.js';

export const AML_EVIDENCE_CONSUMER = 'documents.aml-evidence';

/**
 * aml.file_deleted (after the five-year retention of MLR 2017 reg. 40) → the client's identity evidence
 * rows go in the event's transaction, the files after it commits (a file left behind by a crash is
 * unreachable without its row; a row is never left without its file).
 */
export function amlEvidenceHandler(db: Db, storage: DocumentStorage, logger: Logger): EventHandler {
  const deleteRows = (removed: string[], d: EventData<'aml.file_deleted'>) =>
    idempotent(db, SCHEMA, AML_EVIDENCE_CONSUMER, async (_envelope, tx) => {
      if (d.documentIds.length === 0) return;
      const res = await tx.execute<{ file_path: string }>(sql`
      delete from documents.client_documents
      where client_id = ${d.clientId} and document_type = ${AML_EVIDENCE_DOCUMENT_TYPE}
        and id::text in (${sql.join(
          d.documentIds.map((id) => sql`${id}`),
          sql`, `,
        )})
      returning file_path`);
      removed.push(...res.rows.map((r) => r.file_path));
    });
  return async (envelope) => {
    if (envelope.type !== 'aml.file_deleted') return;
    if (!Value.Check(AmlFileDeletedSchema, envelope.data)) {
      logger.error({ eventId: envelope.id }, 'bad aml.file_deleted skipped');
      return;
    }
    const removed: string[] = [];
    await deleteRows(removed, envelope.data)(envelope);
    for (const key of removed) await storage.remove(key).catch((err) => logger.warn({ err, key }, 'evidence file not removed'));
  };
}

/**
 * Its own subscription rather than the kit's subscribe(): the files go after the rows' transaction has
 * committed, which a handler running inside that transaction cannot do.
 */
export async function subscribeAmlEvidence(runtime: ConsumerRuntime, storage: DocumentStorage): Promise<void> {
  await runtime.bus.subscribe({
    group: AML_EVIDENCE_CONSUMER,
    topics: [TOPICS.aml],
    handler: amlEvidenceHandler(runtime.db, storage, runtime.logger),
  });
}
