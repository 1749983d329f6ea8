import { AppError, type Principal } from '@countinghouse/kit';
import { INTEGRATION_TEXTS, OAUTH_STATE_TTL_SECONDS, type IntegrationType } from '@countinghouse/proto';
import { deleteStaleStates, insertState } from '../db/queries.js';
import { pkceChallenge, randomSecret, sha256 } from '../domain/token-cipher.js';
import { authorizeUrl } from '../adapters/oauth.js';
import type { IntegrationsDeps } from './deps.js';
import { requireOwnClient } from './own-client.js';

/** connect-xero / connect-quickbooks: a state bound to this person, client and provider; the consent URL. */
export async function startConnection(deps: IntegrationsDeps, p: Principal, input: { provider: IntegrationType }): Promise<string> {
  const settings = deps.providers[input.provider];
  if (!settings.configured) throw new AppError('NOT_CONFIGURED', INTEGRATION_TEXTS.notConfigured(input.provider));
  const client = await requireOwnClient(deps.db, p);
  const state = randomSecret();
  const stateHash = sha256(state);
  const verifier = settings.pkce ? randomSecret() : null;
  await deleteStaleStates(deps.db);
  await insertState(deps.db, {
    stateHash,
    provider: input.provider,
    userId: p.id,
    clientId: client.clientId,
    codeVerifierEnc: verifier ? deps.cipher.encrypt(verifier, `state:${stateHash}`) : null,
    expiresAt: new Date(Date.now() + OAUTH_STATE_TTL_SECONDS * 1000),
  });
  return authorizeUrl(settings, state, verifier ? pkceChallenge(verifier) : null);
}
