import { enqueueEvent } from '@countinghouse/kit';
import type { Actor } from '@countinghouse/proto';
import { findDirectoryEntry, recordSyncError, type IntegrationRow } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import type { IntegrationsDeps } from './deps.js';

const SYSTEM: Actor = { kind: 'system', id: null };

/**
 * A sync or keep-alive failure: kept on the integration and told to the practice (integrations.sync_failed),
 * naming the client's sign-in account so that a connection needing reconnecting is e-mailed to them too.
 */
export async function recordSyncFailure(
  deps: Pick<IntegrationsDeps, 'db' | 'relay'>,
  row: IntegrationRow,
  reason: 'needs_reconnect' | 'provider_unavailable' | 'error',
  detail: string,
  trigger: 'sync' | 'keep_alive' = 'sync',
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await recordSyncError(tx, row.id, detail, reason === 'needs_reconnect');
    const client = await findDirectoryEntry(tx, row.clientId);
    await enqueueEvent(
      tx,
      SCHEMA,
      'integrations.sync_failed',
      {
        integrationId: row.id,
        clientId: row.clientId,
        integrationType: row.integrationType,
        reason,
        trigger,
        clientUserId: client?.userId ?? null,
      },
      { actor: SYSTEM, key: row.clientId },
    );
  });
}
