import { listLiveGrants, recordKeepAlive } from '../db/queries.js';
import { assumedExpiry, keepAliveHorizon } from '../domain/keep-alive.js';
import { safeReason } from '../domain/safe-reason.js';
import { ProviderError } from '../adapters/http.js';
import type { IntegrationsDeps } from './deps.js';
import { obtainAccessToken } from './grant.js';
import { recordSyncFailure } from './record-sync-failure.js';

/** What one keep-alive run did, grant by grant. */
export interface KeepAliveReport {
  refreshed: string[];
  refused: string[];
  unavailable: string[];
}

/**
 * The daily keep-alive: every active grant whose refresh token lapses within 14 days is refreshed
 * (the rotated token stored, its new expiry with it), so a client who never syncs stays connected.
 * A refused grant marks the integration "needs reconnecting" and tells the practice
 * (integrations.sync_failed, trigger keep_alive); an unreachable provider is tried again tomorrow.
 */
export async function keepGrantsAlive(deps: IntegrationsDeps): Promise<KeepAliveReport> {
  const now = deps.now();
  const rows = await listLiveGrants(deps.db);
  const report: KeepAliveReport = { refreshed: [], refused: [], unavailable: [] };
  const horizon = keepAliveHorizon(now).getTime();
  for (const r of rows) {
    const provider = r.integration.integrationType;
    if (!deps.providers[provider].configured) continue;
    if (assumedExpiry(provider, r.refreshExpiresAt, r.updatedAt).getTime() > horizon) continue;
    let outcome: 'refreshed' | 'refused' | 'unavailable';
    try {
      await obtainAccessToken(deps, r.integration.id, provider, true);
      outcome = 'refreshed';
    } catch (err) {
      outcome = err instanceof ProviderError && err.failure === 'invalid_grant' ? 'refused' : 'unavailable';
      deps.logger.warn({ provider, integrationId: r.integration.id, reason: safeReason(err) }, 'integrations: keep-alive refresh failed');
    }
    await recordKeepAlive(deps.db, r.integration.id, now, outcome);
    if (outcome === 'refused')
      await recordSyncFailure(deps, r.integration, 'needs_reconnect', 'refresh refused by the provider', 'keep_alive');
    report[outcome].push(r.integration.id);
  }
  return report;
}
