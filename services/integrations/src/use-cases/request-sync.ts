import { AppError, type Principal } from '@countinghouse/kit';
import { INTEGRATION_TEXTS, type IntegrationType } from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { findIntegrationOfClient, insertSyncJob, setLastSyncJob } from '../db/queries.js';
import { SYNC_JOB, type IntegrationsDeps } from './deps.js';
import { requireOwnClient } from './own-client.js';

/** sync-xero-data / sync-quickbooks-data: queue a sync (or hand back the one already running). */
export async function requestSync(deps: IntegrationsDeps, p: Principal, input: { provider: IntegrationType }): Promise<string> {
  const { provider } = input;
  const client = await requireOwnClient(deps.db, p);
  const row = await findIntegrationOfClient(deps.db, client.clientId, provider);
  if (!row || !row.isActive) throw new AppError('CONFLICT', INTEGRATION_TEXTS.notConnected(provider));
  if (row.needsReconnect) throw new AppError('CONFLICT', INTEGRATION_TEXTS.needsReconnect(provider));
  if (row.lastSyncJobId) {
    const s = await deps.jobs.status(SYNC_JOB, row.lastSyncJobId);
    if (s && (s.state === 'waiting' || s.state === 'active' || s.state === 'delayed')) return row.lastSyncJobId;
  }
  const jobId = randomUUID();
  await deps.db.transaction(async (tx) => {
    await insertSyncJob(tx, { jobId, integrationId: row.id, requestedBy: p.id });
    await setLastSyncJob(tx, row.id, jobId);
  });
  await deps.jobs.enqueue(
    SYNC_JOB,
    { integrationId: row.id, integrationType: provider },
    { jobId, attempts: deps.syncAttempts, backoffMs: deps.syncBackoffMs },
  );
  return jobId;
}
