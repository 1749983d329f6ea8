import { enqueueEvent, PermanentJobError, RetryLaterJobError, type JobContext } from '@countinghouse/kit';
import type { Actor, IntegrationData, JobPayload } from '@countinghouse/proto';
import { deferSyncJob, findCredentials, findIntegration, recordSyncResult, type IntegrationRow } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { integrationDataOf } from '../domain/integration-data.js';
import { MAX_SYNC_WAIT_MS } from '../domain/rate-limit.js';
import { safeReason } from '../domain/safe-reason.js';
import { ProviderError } from '../adapters/http.js';
import type { SYNC_JOB, IntegrationsDeps } from './deps.js';
import { withAccessToken } from './grant.js';
import { recordSyncFailure } from './record-sync-failure.js';

const SYSTEM: Actor = { kind: 'system', id: null };

/**
 * The sync processor. Provider trouble that may pass (429, 5xx, timeouts) is thrown as a normal
 * error so the queue retries with backoff; a refused grant marks the integration as needing
 * reconnection and fails the job for good.
 */
export async function runSync(
  deps: IntegrationsDeps,
  payload: JobPayload<typeof SYNC_JOB>,
  ctx: JobContext,
): Promise<{ syncedAt: string }> {
  const row = await findIntegration(deps.db, payload.integrationId);
  if (!row || !row.isActive) throw new PermanentJobError('The integration is not connected');
  if (row.needsReconnect) throw new PermanentJobError('The integration needs reconnecting');
  const provider = row.integrationType;
  const adapter = deps.adapters[provider];
  try {
    await ctx.reportProgress(5);
    const cred = await findCredentials(deps.db, row.id);
    if (!cred) throw new ProviderError(provider, 'invalid_grant', 'stored grant (missing)');
    const result = await withAccessToken(deps, row.id, provider, (access) =>
      adapter.summarise(access, cred.externalId, ctx.reportProgress),
    );
    const syncedAt = new Date();
    const s = result.summary;
    await deps.db.transaction(async (tx) => {
      const data: IntegrationData = { company_name: result.companyName ?? integrationDataOf(row.integrationData).company_name, summary: s };
      await recordSyncResult(tx, row.id, data, syncedAt);
      await enqueueEvent(
        tx,
        SCHEMA,
        'integrations.synced',
        {
          integrationId: row.id,
          clientId: row.clientId,
          integrationType: provider,
          syncedAt: syncedAt.toISOString(),
          currency: s.currency,
          receivables: s.receivables,
          payables: s.payables,
          overdueReceivables: s.overdue_receivables,
          overduePayables: s.overdue_payables,
          contacts: s.contacts,
          invoices: s.invoices,
        },
        { actor: SYSTEM, key: row.clientId },
      );
    });
    await ctx.reportProgress(100);
    return { syncedAt: syncedAt.toISOString() };
  } catch (err) {
    const reason = safeReason(err);
    if (err instanceof ProviderError && err.retryAt) await deferOrGiveUp(deps, row, ctx.id, err, err.retryAt);
    const grantGone = err instanceof ProviderError && (err.failure === 'invalid_grant' || err.failure === 'unauthorized');
    const retryable = !grantGone && !(err instanceof ProviderError && !err.retryable) && !(err instanceof PermanentJobError);
    if (retryable) {
      if (ctx.attempt >= deps.syncAttempts) {
        await recordSyncFailure(deps, row, err instanceof ProviderError ? 'provider_unavailable' : 'error', reason);
      }
      throw err; // the queue retries with backoff
    }
    await recordSyncFailure(deps, row, grantGone ? 'needs_reconnect' : 'error', reason);
    throw new PermanentJobError(reason, { cause: err });
  }
}

/**
 * The provider (or our budget for it) said "not now, at T": the job runs again at T, using up no
 * attempt, unless waiting would take it past MAX_SYNC_WAIT_MS after it was asked for.
 */
async function deferOrGiveUp(deps: IntegrationsDeps, row: IntegrationRow, jobId: string, err: ProviderError, at: Date): Promise<never> {
  const why = err.status === 429 ? 'provider_429' : err.status ? `provider_${err.status}` : 'budget';
  const job = await deferSyncJob(deps.db, jobId, at, why);
  const since = job?.createdAt ?? deps.now();
  if (at.getTime() - since.getTime() > MAX_SYNC_WAIT_MS) {
    await recordSyncFailure(deps, row, 'provider_unavailable', safeReason(err));
    throw new PermanentJobError(safeReason(err), { cause: err });
  }
  deps.logger.info(
    { provider: row.integrationType, at: at.toISOString(), reason: safeReason(err) },
    'integrations: sync waits for the provider',
  );
  throw new RetryLaterJobError(at, safeReason(err));
}
