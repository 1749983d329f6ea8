import { INTEGRATION_TEXTS, MESSAGES, type SyncJob } from '@countinghouse/proto';
import { findIntegration, findSyncJobRetryAt, type IntegrationRow } from '../db/queries.js';
import { SYNC_JOB, type IntegrationsDeps } from './deps.js';

/** A sync job as the page shows it: state and progress, when it waits for the provider, why it failed. */
export async function describeSyncJob(deps: IntegrationsDeps, row: IntegrationRow, jobId: string): Promise<SyncJob | null> {
  const s = await deps.jobs.status(SYNC_JOB, jobId);
  if (!s) return null;
  const view: SyncJob = { id: jobId, integration_type: row.integrationType, state: s.state, progress: s.progress };
  if (s.state === 'delayed' || s.state === 'waiting') {
    const retryAt = await findSyncJobRetryAt(deps.db, jobId);
    if (retryAt && retryAt.getTime() > deps.now().getTime()) {
      view.retry_at = retryAt.toISOString();
      view.notice = INTEGRATION_TEXTS.syncWaiting(view.integration_type);
    }
  }
  if (s.state === 'failed') {
    // (the row as it is now, read after the job's state: the processor records a lost grant before the job
    // fails, so a row read before the state could say nothing of it, and the page's last poll would show
    // the general failure instead of "Please connect again")
    const now = (await findIntegration(deps.db, row.id)) ?? row;
    view.error = now.needsReconnect ? INTEGRATION_TEXTS.needsReconnect(view.integration_type) : MESSAGES.failedToSyncData;
  }
  return view;
}
