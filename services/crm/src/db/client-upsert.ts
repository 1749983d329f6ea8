import type { Db } from '@countinghouse/kit';
import { CLIENT_PLACEHOLDERS, type Actor, type SubscriptionStatus } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { feeForPackage } from '../domain/clients.js';
import { publishClientUpserted } from './queries.js';
import { clients } from './schema.js';

export interface SubscriptionUpsert {
  userId: string;
  packageName: string | null;
  subscriptionStatus: SubscriptionStatus;
  contactEmail: string;
  nextBillingDate?: string | null;
}

/**
 * The seam for billing's subscription events (issue 6): upsert the client keyed on user_id (spec
 * section 7). A new client gets the spec's placeholders (company and contact name, business type
 * limited, onboarding not completed); an existing one keeps its details and takes the new package,
 * fee and status. Publishes crm.client_upserted in the same transaction. Call it inside the
 * consumer's transaction (idempotent()).
 */
export async function upsertClientFromSubscription(tx: Db, s: SubscriptionUpsert, actor: Actor) {
  const fee = feeForPackage(s.packageName);
  const [row] = await tx
    .insert(clients)
    .values({
      userId: s.userId,
      companyName: CLIENT_PLACEHOLDERS.companyName,
      contactName: CLIENT_PLACEHOLDERS.contactName,
      contactEmail: s.contactEmail.toLowerCase(),
      businessType: 'limited',
      packageName: s.packageName,
      monthlyFee: fee,
      subscriptionStatus: s.subscriptionStatus,
      nextBillingDate: s.nextBillingDate ?? null,
      onboardingCompleted: false,
    })
    .onConflictDoUpdate({
      target: clients.userId,
      set: {
        packageName: s.packageName,
        monthlyFee: fee,
        subscriptionStatus: s.subscriptionStatus,
        nextBillingDate: sql`coalesce(excluded.next_billing_date, ${clients.nextBillingDate})`,
        updatedAt: new Date(),
      },
    })
    .returning();
  await publishClientUpserted(tx, row!, actor);
  return row!;
}
