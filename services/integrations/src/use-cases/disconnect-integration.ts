import { AppError, enqueueEvent, type Principal } from '@countinghouse/kit';
import { INTEGRATION_TEXTS, type IntegrationType } from '@countinghouse/proto';
import { deleteCredentials, findIntegrationOfClient, markDisconnected } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { safeReason } from '../domain/safe-reason.js';
import { revokeGrant } from '../adapters/oauth.js';
import type { IntegrationsDeps } from './deps.js';
import { requireOwnClient } from './own-client.js';

/** Disconnect: is_active false, the record kept, the stored grant deleted and revoked at the provider. */
export async function disconnectIntegration(deps: IntegrationsDeps, p: Principal, input: { provider: IntegrationType }): Promise<void> {
  const { provider } = input;
  const client = await requireOwnClient(deps.db, p);
  const row = await findIntegrationOfClient(deps.db, client.clientId, provider);
  if (!row) throw new AppError('NOT_FOUND', INTEGRATION_TEXTS.integrationNotFound);
  const refreshToken = await deps.db.transaction(async (tx) => {
    const cred = await deleteCredentials(tx, row.id);
    await markDisconnected(tx, row.id);
    if (row.isActive) {
      await enqueueEvent(
        tx,
        SCHEMA,
        'integrations.disconnected',
        { integrationId: row.id, clientId: row.clientId, integrationType: provider },
        { actor: { kind: 'user', id: p.id }, key: row.clientId },
      );
    }
    if (!cred) return null;
    try {
      return deps.cipher.decrypt(cred.refreshTokenEnc, `${row.id}:refresh`);
    } catch {
      return null;
    }
  });
  const settings = deps.providers[provider];
  if (refreshToken && settings.configured) {
    // Best effort: the local disconnect stands even when the provider cannot be reached.
    await revokeGrant(settings, refreshToken).catch((err) =>
      deps.logger.warn({ provider, reason: safeReason(err) }, 'integrations: revocation at the provider failed'),
    );
  }
}
