import { AppError, canSeeClient, clientScopeOf, type Principal } from '@countinghouse/kit';
import { INTEGRATION_TEXTS, type SyncJob } from '@countinghouse/proto';
import { findSyncJobWithIntegration } from '../db/queries.js';
import { CLIENT_SCOPE } from '../domain/access.js';
import type { IntegrationsDeps } from './deps.js';
import { describeSyncJob } from './describe-sync-job.js';

/** A sync job's state, to those who may see its integration (others: not found). */
export async function getSyncJob(deps: IntegrationsDeps, p: Principal, input: { jobId: string }): Promise<SyncJob> {
  const r = await findSyncJobWithIntegration(deps.db, input.jobId);
  if (!r || !r.directory || !canSeeClient(clientScopeOf(p, CLIENT_SCOPE), r.directory))
    throw new AppError('NOT_FOUND', INTEGRATION_TEXTS.syncJobNotFound);
  const view = await describeSyncJob(deps, r.integration, input.jobId);
  if (!view) throw new AppError('NOT_FOUND', INTEGRATION_TEXTS.syncJobNotFound);
  return view;
}
