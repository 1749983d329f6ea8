import { enqueueEvent } from '@countinghouse/kit';
import type { ConnectResult, IntegrationType } from '@countinghouse/proto';
import { spendState, upsertConnectedIntegration, upsertCredentials } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { safeReason } from '../domain/safe-reason.js';
import { sha256 } from '../domain/token-cipher.js';
import { exchangeCode } from '../adapters/oauth.js';
import type { IntegrationsDeps } from './deps.js';
import { sealGrant } from './grant.js';

export interface ConnectionCallback {
  code?: string;
  state?: string;
  realmId?: string;
  error?: string;
}

/**
 * The provider's redirect (public: the state authenticates it). The state must be ours, for this
 * provider, unexpired and unused (it is spent here, whatever happens next). Then the code is
 * exchanged, the organisation recorded and the tokens stored encrypted. Any failure stores nothing
 * and answers 'error'.
 */
export async function completeConnection(
  deps: IntegrationsDeps,
  input: { provider: IntegrationType; callback: ConnectionCallback },
): Promise<ConnectResult> {
  const { provider, callback: q } = input;
  if (!q.state) return 'error';
  const stateHash = sha256(q.state);
  const st = await spendState(deps.db, stateHash, provider);
  if (!st) {
    deps.logger.warn({ provider }, 'integrations: callback with an unknown, spent or expired state');
    return 'error';
  }
  if (q.error || !q.code) {
    deps.logger.info({ provider, error: q.error?.slice(0, 50) }, 'integrations: the provider did not grant access');
    return 'error';
  }
  const settings = deps.providers[provider];
  if (!settings.configured) return 'error';
  try {
    const verifier = st.codeVerifierEnc ? deps.cipher.decrypt(st.codeVerifierEnc, `state:${stateHash}`) : null;
    const tokens = await exchangeCode(settings, q.code, verifier);
    const org = await deps.adapters[provider].organisation(tokens.accessToken, { realmId: q.realmId });
    await deps.db.transaction(async (tx) => {
      const row = await upsertConnectedIntegration(tx, {
        clientId: st.clientId,
        provider,
        companyName: org.companyName,
        connectedBy: st.userId,
      });
      await upsertCredentials(tx, row.id, {
        externalId: org.externalId,
        connectionId: org.connectionId,
        ...sealGrant(deps, row.id, provider, tokens),
      });
      await enqueueEvent(
        tx,
        SCHEMA,
        'integrations.connected',
        { integrationId: row.id, clientId: st.clientId, integrationType: provider, companyName: org.companyName },
        { actor: { kind: 'user', id: st.userId }, key: st.clientId },
      );
    });
    return 'connected';
  } catch (err) {
    deps.logger.warn({ provider, reason: safeReason(err) }, 'integrations: connection failed');
    return 'error';
  }
}
