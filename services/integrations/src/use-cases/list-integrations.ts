import { AppError, canSeeClient, clientScopeOf, type Principal } from '@countinghouse/kit';
import { INTEGRATION_TEXTS, INTEGRATION_TYPES, type IntegrationCard, type IntegrationList } from '@countinghouse/proto';
import { findDirectoryEntry, listIntegrationsOfClient, type DirectoryRow } from '../db/queries.js';
import { CLIENT_SCOPE } from '../domain/access.js';
import { integrationDataOf } from '../domain/integration-data.js';
import type { IntegrationsDeps } from './deps.js';
import { describeSyncJob } from './describe-sync-job.js';
import { findOwnClient } from './own-client.js';

/** One card per provider for the client: the caller's own business, or (staff) the one asked for. */
export async function listIntegrations(deps: IntegrationsDeps, p: Principal, input: { clientId?: string }): Promise<IntegrationList> {
  let client: DirectoryRow | null;
  if (input.clientId) {
    const entry = await findDirectoryEntry(deps.db, input.clientId);
    // Someone else's client looks exactly like one that does not exist.
    if (!entry || !canSeeClient(clientScopeOf(p, CLIENT_SCOPE), entry))
      throw new AppError('NOT_FOUND', INTEGRATION_TEXTS.integrationNotFound);
    client = entry;
  } else {
    client = await findOwnClient(deps.db, p);
  }
  const rows = client ? await listIntegrationsOfClient(deps.db, client.clientId) : [];
  const integrations = await Promise.all(
    INTEGRATION_TYPES.map(async (t): Promise<IntegrationCard> => {
      const row = rows.find((r) => r.integrationType === t);
      return {
        id: row?.id ?? null,
        client_id: client?.clientId ?? null,
        integration_type: t,
        is_active: row?.isActive ?? false,
        integration_data: integrationDataOf(row?.integrationData),
        last_sync_at: row?.lastSyncAt?.toISOString() ?? null,
        needs_reconnect: row?.needsReconnect ?? false,
        configured: deps.providers[t].configured,
        sync: row?.lastSyncJobId ? await describeSyncJob(deps, row, row.lastSyncJobId) : null,
      };
    }),
  );
  return { client: client ? { id: client.clientId, company_name: client.companyName } : null, integrations };
}
