import { idempotent, type Db, type Runtime } from '@countinghouse/kit';
import { TOPICS, type Actor, type EventData, type EventEnvelope, type SubscriptionEventData } from '@countinghouse/proto';
import { upsertClientFromSubscription } from './db/client-upsert.js';
import { SCHEMA, clientUpgrades } from './db/schema.js';

/** YYYY-MM-DD of an instant, in the practice's time zone (next_billing_date is a calendar date). */
const londonDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

export function billingDate(iso: string | null): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : londonDate.format(d);
}

const BILLING_EVENT_TYPES = new Set([
  'billing.subscription_activated',
  'billing.subscription_updated',
  'billing.payment_failed',
  'billing.subscription_cancelled',
]);

/**
 * billing's subscription events → the client record, keyed on user_id (spec: 'UPSERT clients keyed on
 * user_id'; 'Client created after payment'). Every billing event carries the subscription's whole
 * state, so each one is applied the same way: status, package, fee and next billing date. A package
 * change (an upgrade or downgrade the client made) is also recorded as a completed client_upgrades row.
 * Idempotent: a redelivered event is skipped (processed_events).
 */
export async function applyBillingEvent(tx: Db, envelope: EventEnvelope): Promise<void> {
  if (!BILLING_EVENT_TYPES.has(envelope.type)) return;
  const d = envelope.data as SubscriptionEventData &
    Partial<Pick<EventData<'billing.subscription_activated'>, 'contactName' | 'companyName'>>;
  const actor: Actor = envelope.actor;
  const client = await upsertClientFromSubscription(
    tx,
    {
      userId: d.userId,
      packageName: d.packageName,
      subscriptionStatus: d.status,
      contactEmail: d.email,
      nextBillingDate: billingDate(d.currentPeriodEnd),
      contactName: d.contactName ?? null,
      companyName: d.companyName ?? null,
    },
    actor,
  );
  if (envelope.type === 'billing.subscription_updated') {
    const u = envelope.data as EventData<'billing.subscription_updated'>;
    if (u.reason === 'package_changed' && u.previousPackageName && u.previousPackageName !== u.packageName) {
      const now = new Date(envelope.occurredAt);
      await tx.insert(clientUpgrades).values({
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

export async function subscribeBillingConsumer(runtime: Runtime): Promise<void> {
  await runtime.bus.subscribe({
    group: 'crm.billing',
    topics: [TOPICS.billing],
    handler: idempotent(runtime.db, SCHEMA, 'crm.billing', (envelope, tx) => applyBillingEvent(tx, envelope)),
  });
}
