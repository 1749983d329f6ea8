import { idempotent, type Db, type EventHandler } from '@countinghouse/kit';
import { ClientUpsertedSchema, type EventData, type EventEnvelope } from '@countinghouse/proto';
import { Value } from '@sinclair/typebox/value';
import type { Logger } from 'pino';
import { upsertDirectoryEntry } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';

export const CLIENT_DIRECTORY_CONSUMER = 'integrations.client-directory';

/** crm.client_upserted → which client record belongs to which person, once per event id. */
export function clientDirectoryHandler(db: Db, logger: Logger): EventHandler {
  const apply = idempotent(db, SCHEMA, CLIENT_DIRECTORY_CONSUMER, async (envelope, tx) => {
    const d = envelope.data as EventData<'crm.client_upserted'>;
    const row = {
      clientId: d.clientId,
      userId: d.userId,
      companyName: d.companyName,
      assignedAccountantId: d.assignedAccountantId,
      sourceAt: new Date(envelope.occurredAt),
    };
    await upsertDirectoryEntry(tx, row);
  });
  return async (envelope: EventEnvelope) => {
    if (envelope.type !== 'crm.client_upserted') return;
    if (!Value.Check(ClientUpsertedSchema, envelope.data)) {
      // it can never apply, so retrying would block the topic: logged and skipped
      logger.error({ eventId: envelope.id }, 'bad crm.client_upserted skipped');
      return;
    }
    await apply(envelope);
  };
}
