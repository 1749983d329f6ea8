import { AppError, type Principal } from '@countinghouse/kit';
import type { ClientUpgrade, UpgradeCreateBody, UpgradeList, UpgradeListQuery, UpgradeUpdateBody } from '@countinghouse/proto';
import { lockClient, updateClient } from '../db/clients.js';
import { publishClientUpserted } from '../db/queries.js';
import type { clientUpgrades } from '../db/schema.js';
import { hasOpenUpgrade, insertUpgradeRequest, listUpgrades, loadUpgrade, lockUpgrade, updateUpgrade } from '../db/upgrades.js';
import { cleanOptional, cleanRequired, CLIENT_MESSAGES, feeForPackage } from '../domain/clients.js';
import { canMoveUpgrade, UPGRADE_MESSAGES, upgradeTransitionMessage } from '../domain/upgrades.js';
import { actorOf, pageOf, type CrmDeps } from './deps.js';

/** Package upgrade requests, newest first. */
export async function findUpgrades(deps: CrmDeps, q: UpgradeListQuery): Promise<UpgradeList> {
  const { upgrades, total } = await listUpgrades(deps.db, q, pageOf(q));
  return { upgrades, total, page: q.page, page_size: q.page_size };
}

export async function getUpgrade(deps: CrmDeps, id: string): Promise<ClientUpgrade> {
  const u = await loadUpgrade(deps.db, id);
  if (!u) throw new AppError('NOT_FOUND', UPGRADE_MESSAGES.notFound);
  return u;
}

/** Request a change of a client's package (one in progress at a time). */
export async function requestUpgrade(deps: CrmDeps, b: UpgradeCreateBody): Promise<ClientUpgrade> {
  const toPackage = cleanRequired(b.to_package);
  const id = await deps.db.transaction(async (tx) => {
    const client = await lockClient(tx, b.client_id);
    if (!client)
      throw new AppError('VALIDATION_FAILED', CLIENT_MESSAGES.notFound, [{ path: 'client_id', message: CLIENT_MESSAGES.notFound }]);
    if (client.packageName === toPackage) throw new AppError('VALIDATION_FAILED', UPGRADE_MESSAGES.samePackage);
    if (await hasOpenUpgrade(tx, client.id)) throw new AppError('CONFLICT', UPGRADE_MESSAGES.inProgress);
    return insertUpgradeRequest(tx, {
      clientId: client.id,
      fromPackage: client.packageName,
      toPackage,
      notes: cleanOptional(b.notes) ?? null,
    });
  });
  return (await loadUpgrade(deps.db, id))!;
}

/** Approve, reject or complete an upgrade; completing moves the client to the new package (and says so). */
export async function decideUpgrade(deps: CrmDeps, principal: Principal, id: string, b: UpgradeUpdateBody): Promise<ClientUpgrade> {
  await deps.db.transaction(async (tx) => {
    const cur = await lockUpgrade(tx, id);
    if (!cur) throw new AppError('NOT_FOUND', UPGRADE_MESSAGES.notFound);
    const from = cur.status;
    const set: Partial<typeof clientUpgrades.$inferInsert> = {};
    if (b.notes !== undefined) set.notes = cleanOptional(b.notes) ?? null;
    if (b.status !== undefined && b.status !== from) {
      if (!canMoveUpgrade(from, b.status)) throw new AppError('CONFLICT', upgradeTransitionMessage(from, b.status));
      set.status = b.status;
      set.decidedAt = new Date();
      set.decidedBy = principal.id;
      if (b.status === 'completed') {
        const client = await updateClient(tx, cur.clientId, {
          packageName: cur.toPackage,
          monthlyFee: feeForPackage(cur.toPackage),
          updatedAt: new Date(),
        });
        await publishClientUpserted(tx, client!, actorOf(principal));
      }
    }
    if (Object.keys(set).length > 0) await updateUpgrade(tx, id, set);
  });
  return (await loadUpgrade(deps.db, id))!;
}
