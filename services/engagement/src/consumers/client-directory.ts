import { idempotent, type Db, type EventHandler } from '@countinghouse/kit';
import { ClientUpsertedSchema, type EventData, type EventEnvelope } from '@countinghouse/proto';
import { Value } from '@sinclair/typebox/value';
import type { Logger } from 'pino';
import { newestLetter, upsertDirectory } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { letterNeeded } from '../domain/status.js';
import type { EngagementDeps } from '../use-cases/deps.js';
import { issueLetter } from '../use-cases/issue-letter.js';

export const CLIENT_DIRECTORY_CONSUMER = 'engagement.client-directory';

/**
 * crm.client_upserted → the client directory, and the letter it calls for: a client with a sign-in
 * account and a package gets their first letter; a change of package (an upgrade completed in crm, or
 * a change the client made in billing: both end in this event with the new package) gets a new
 * version. Once per event id, in the transaction that records it.
 */
export function clientDirectoryHandler(deps: Pick<EngagementDeps, 'db' | 'practice' | 'now' | 'relay'>, logger: Logger): EventHandler {
  const apply = idempotent(deps.db, SCHEMA, CLIENT_DIRECTORY_CONSUMER, async (envelope, tx: Db) => {
    const d = envelope.data as EventData<'crm.client_upserted'>;
    const client = await upsertDirectory(tx, {
      clientId: d.clientId,
      userId: d.userId,
      companyName: d.companyName,
      contactName: d.contactName,
      contactEmail: d.contactEmail,
      packageName: d.packageName,
      monthlyFee: d.monthlyFee,
      subscriptionStatus: d.subscriptionStatus,
      businessType: d.businessType ?? null,
      assignedAccountantId: d.assignedAccountantId,
      sourceAt: new Date(envelope.occurredAt),
    });
    if (!client) return;
    const reason = letterNeeded(client, await newestLetter(tx, client.clientId));
    if (reason) await issueLetter(deps, tx, client, reason, { kind: 'system', id: null, name: 'Countinghouse' });
  });
  return async (envelope: EventEnvelope) => {
    if (envelope.type !== 'crm.client_upserted') return;
    if (!Value.Check(ClientUpsertedSchema, envelope.data)) {
      logger.error({ eventId: envelope.id, errors: [...Value.Errors(ClientUpsertedSchema, envelope.data)].slice(0, 5) }, 'bad crm.client_upserted skipped');
      return;
    }
    await apply(envelope);
    deps.relay.kick();
  };
}
