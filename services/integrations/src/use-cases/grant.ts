import type { IntegrationType } from '@countinghouse/proto';
import { lockCredentials, storeRefreshedGrant, type SealedGrant } from '../db/queries.js';
import { refreshTokenExpiry } from '../domain/keep-alive.js';
import { ProviderError } from '../adapters/http.js';
import { refreshGrant, type TokenSet } from '../adapters/oauth.js';
import type { IntegrationsDeps } from './deps.js';

/** Refresh a little before the provider's expiry, so a token never lapses mid-sync. */
const EXPIRY_MARGIN_MS = 60_000;

/** A provider's tokens sealed for storage (AES-256-GCM, bound to the integration and the token's use). */
export function sealGrant(
  deps: Pick<IntegrationsDeps, 'cipher' | 'now'>,
  integrationId: string,
  provider: IntegrationType,
  t: TokenSet,
): SealedGrant {
  const now = deps.now();
  return {
    accessTokenEnc: deps.cipher.encrypt(t.accessToken, `${integrationId}:access`),
    refreshTokenEnc: deps.cipher.encrypt(t.refreshToken, `${integrationId}:refresh`),
    accessExpiresAt: new Date(now.getTime() + t.expiresIn * 1000),
    refreshExpiresAt: refreshTokenExpiry(provider, t.refreshExpiresIn, now),
    scope: t.scope,
  };
}

/**
 * A usable access token: the stored one while it has a minute left (unless `force`), else a refreshed
 * one. The row is locked while refreshing, so two workers never spend the same (single-use) refresh
 * token; the rotated refresh token is stored at once.
 */
export async function obtainAccessToken(
  deps: IntegrationsDeps,
  integrationId: string,
  provider: IntegrationType,
  force: boolean,
): Promise<string> {
  return deps.db.transaction(async (tx) => {
    const cred = await lockCredentials(tx, integrationId);
    if (!cred) throw new ProviderError(provider, 'invalid_grant', 'stored grant (missing)');
    let access: string;
    let refresh: string;
    try {
      access = deps.cipher.decrypt(cred.accessTokenEnc, `${integrationId}:access`);
      refresh = deps.cipher.decrypt(cred.refreshTokenEnc, `${integrationId}:refresh`);
    } catch {
      // sealed with another key: the grant is unusable here, the client must connect again
      throw new ProviderError(provider, 'invalid_grant', 'stored grant (cannot be decrypted)');
    }
    if (!force && cred.accessExpiresAt.getTime() - EXPIRY_MARGIN_MS > deps.now().getTime()) return access;
    const tokens = await refreshGrant(deps.providers[provider], refresh);
    await storeRefreshedGrant(tx, integrationId, sealGrant(deps, integrationId, provider, tokens));
    return tokens.accessToken;
  });
}

/**
 * Runs a provider call with the integration's access token. An access token the provider refuses before
 * its time (revoked, or the clock is off) is refreshed once and the call made again.
 */
export async function withAccessToken<T>(
  deps: IntegrationsDeps,
  integrationId: string,
  provider: IntegrationType,
  call: (accessToken: string) => Promise<T>,
): Promise<T> {
  try {
    return await call(await obtainAccessToken(deps, integrationId, provider, false));
  } catch (err) {
    if (!(err instanceof ProviderError && err.failure === 'unauthorized')) throw err;
    return call(await obtainAccessToken(deps, integrationId, provider, true));
  }
}
