import { AppError } from '@countinghouse/kit';
import { BILLING_MESSAGES, type SubscriptionCheck } from '@countinghouse/proto';
import { eventState, findLatestSubscription, findLiveSubscription, publish, toCheck, updateSubscription } from '../db/queries.js';
import { isLive } from '../domain/subscriptions.js';
import { packageOrFail } from './checkout.js';
import type { BillingDeps } from './deps.js';

export async function checkSubscription(d: BillingDeps, userId: string): Promise<SubscriptionCheck> {
  const live = await findLiveSubscription(d.db, userId);
  if (live) return toCheck(live);
  // The latest cancelled one, so the dashboard can say it ended.
  return toCheck(await findLatestSubscription(d.db, userId));
}

/**
 * Upgrade or downgrade: change the provider's subscription first (Stripe prorates), then ours, and
 * publish billing.subscription_updated (reason package_changed) so crm records a client_upgrades row.
 */
export async function changePackage(d: BillingDeps, userId: string, packageName: string): Promise<SubscriptionCheck> {
  const pkg = packageOrFail(packageName);
  const live = await findLiveSubscription(d.db, userId);
  if (!live || !isLive(live.status)) throw new AppError('NOT_FOUND', BILLING_MESSAGES.noSubscription);
  if (live.packageName === pkg.name) throw new AppError('CONFLICT', BILLING_MESSAGES.samePackage);
  if (live.provider !== d.provider.kind) throw new AppError('CONFLICT', BILLING_MESSAGES.providerUnavailable);
  const periodEnd = await d.provider.changePackage(live.providerSubscriptionId, pkg, live.currentPeriodEnd);
  const row = await d.db.transaction(async (tx) => {
    const current = await findLiveSubscription(tx, userId, { forUpdate: true });
    if (!current) throw new AppError('NOT_FOUND', BILLING_MESSAGES.noSubscription);
    const updated = await updateSubscription(tx, current.id, {
      packageName: pkg.name,
      monthlyFee: pkg.monthlyFee,
      currentPeriodEnd: periodEnd ?? current.currentPeriodEnd,
      updatedAt: new Date(),
    });
    await publish(
      tx,
      'billing.subscription_updated',
      { ...eventState(updated), reason: 'package_changed', previousPackageName: current.packageName },
      { kind: 'user', id: userId },
    );
    return updated;
  });
  return toCheck(row);
}
