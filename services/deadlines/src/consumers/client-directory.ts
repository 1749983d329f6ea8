import { idempotent, type Db, type EventHandler } from '@countinghouse/kit';
import { ClientUpsertedSchema, type EventData, type EventEnvelope } from '@countinghouse/proto';
import { Value } from '@sinclair/typebox/value';
import type { Logger } from 'pino';
import { upsertDirectory } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';

export const CLIENT_DIRECTORY_CONSUMER = 'deadlines.client-directory';

/** crm.client_upserted → the client directory (name, owner, accountant, status, business type), once per event id. */
export function clientDirectoryHandler(db: Db, logger: Logger): EventHandler {
  const apply = idempotent(db, SCHEMA, CLIENT_DIRECTORY_CONSUMER, async (envelope, tx) => {
    const d = envelope.data as EventData<'crm.client_upserted'>;
    await upsertDirectory(tx, {
      clientId: d.clientId,
      userId: d.userId,
      companyName: d.companyName,
      businessType: d.businessType ?? null,
      status: d.subscriptionStatus,
      accountantId: d.assignedAccountantId,
      at: envelope.occurredAt,
    });
  });
  return async (envelope: EventEnvelope) => {
    if (envelope.type !== 'crm.client_upserted') return;
    if (!Value.Check(ClientUpsertedSchema, envelope.data)) {
      // A malformed event could never apply and would be retried forever: logged and skipped.
      logger.error(
        { eventId: envelope.id, errors: [...Value.Errors(ClientUpsertedSchema, envelope.data)].slice(0, 5) },
        'bad crm.client_upserted skipped',
      );
      return;
    }
    await apply(envelope);
  };
}
