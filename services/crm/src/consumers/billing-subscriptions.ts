import { subscribe, type ConsumerRuntime, type DbOrTx, type EventOf } from '@countinghouse/kit';
import type { Actor } from '@countinghouse/proto';
import { upsertClientFromSubscription } from '../db/client-upsert.js';
import { insertUpgrade } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { enterBillingOnTimeline } from './timeline.js';

/** YYYY-MM-DD of an instant, in the practice's time zone (next_billing_date is a calendar date). */
const londonDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

export function billingDate(iso: string | null): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : londonDate.format(d);
}

const BILLING_EVENT_TYPES = [
  'billing.subscription_activated',
  'billing.subscription_updated',
  'billing.payment_failed',
  'billing.subscription_cancelled',
] as const;
type BillingEvent = EventOf<(typeof BILLING_EVENT_TYPES)[number]>;

/**
 * billing's subscription events → the client record, keyed on user_id (spec: 'UPSERT clients keyed on
 * user_id'; 'Client created after payment'). Every billing event carries the subscription's whole
 * state, so each one is applied the same way: status, package, fee and next billing date. A package
 * change (an upgrade or downgrade the client made) is also recorded as a completed client_upgrades row.
 * Idempotent: a redelivered event is skipped (processed_events).
 */
export async function applyBillingEvent(tx: DbOrTx, envelope: BillingEvent): Promise<void> {
  const d = envelope.data;
  const names = envelope.type === 'billing.subscription_activated' ? envelope.data : null;
  const actor: Actor = envelope.actor;
  const client = await upsertClientFromSubscription(
    tx,
    {
      userId: d.userId,
      packageName: d.packageName,
      subscriptionStatus: d.status,
      contactEmail: d.email,
      nextBillingDate: billingDate(d.currentPeriodEnd),
      contactName: names?.contactName ?? null,
      companyName: names?.companyName ?? null,
      businessType: names?.businessType ?? null,
      contactPhone: names?.phone ?? null,
    },
    actor,
  );
  await enterBillingOnTimeline(tx, envelope, client.id);
  if (envelope.type === 'billing.subscription_updated') {
    const u = envelope.data;
    if (u.reason === 'package_changed' && u.previousPackageName && u.previousPackageName !== u.packageName) {
      const now = new Date(envelope.occurredAt);
      await insertUpgrade(tx, {
        clientId: client.id,
        fromPackage: u.previousPackageName,
        toPackage: u.packageName,
        status: 'completed',
        notes: 'Changed by the client; the subscription was changed at once.',
        requestedAt: now,
        decidedAt: now,
        decidedBy: 'billing',
      });
    }
  }
}

export async function subscribeBillingConsumer(runtime: ConsumerRuntime): Promise<void> {
  await subscribe(runtime, {
    group: 'crm.billing',
    types: BILLING_EVENT_TYPES,
    schema: SCHEMA,
    handler: (e, tx) => applyBillingEvent(tx, e),
  });
}
