import type { Db } from '@countinghouse/kit';
import { CLIENT_PLACEHOLDERS, isBusinessType, type Actor, type SubscriptionStatus } from '@countinghouse/proto';
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
  /** What the person typed at sign-up; the spec's placeholders apply only when nothing was given. */
  contactName?: string | null;
  companyName?: string | null;
  /** Issue 33: the business type and phone given at sign-up (a new client only; else limited, no phone). */
  businessType?: string | null;
  contactPhone?: string | null;
}

/** The name typed at sign-up, trimmed and cut to the profile's 200 characters, else the placeholder. */
export function givenOr(value: string | null | undefined, placeholder: string): string {
  const v = value?.trim().slice(0, 200);
  return v ? v : placeholder;
}

/**
 * The seam for billing's subscription events (issue 6): upsert the client keyed on user_id (spec
 * section 7). A new client takes the company and contact name typed at sign-up, or the spec's
 * placeholders when none was given (business type limited, onboarding not completed); an existing
 * one keeps its details (a placeholder still there is replaced by a name the event brings) and
 * takes the new package, fee and status. Publishes crm.client_upserted in the same transaction. Call it inside the
 * consumer's transaction (idempotent()).
 */
export async function upsertClientFromSubscription(tx: Db, s: SubscriptionUpsert, actor: Actor) {
  const fee = feeForPackage(s.packageName);
  const companyName = givenOr(s.companyName, CLIENT_PLACEHOLDERS.companyName);
  const contactName = givenOr(s.contactName, CLIENT_PLACEHOLDERS.contactName);
  const [row] = await tx
    .insert(clients)
    .values({
      userId: s.userId,
      companyName,
      contactName,
      contactEmail: s.contactEmail.toLowerCase(),
      businessType: isBusinessType(s.businessType) ? s.businessType : 'limited',
      contactPhone: s.contactPhone?.trim() || null,
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
        companyName: sql`case when ${clients.companyName} = ${CLIENT_PLACEHOLDERS.companyName} then excluded.company_name else ${clients.companyName} end`,
        contactName: sql`case when ${clients.contactName} = ${CLIENT_PLACEHOLDERS.contactName} then excluded.contact_name else ${clients.contactName} end`,
        updatedAt: new Date(),
      },
    })
    .returning();
  await publishClientUpserted(tx, row!, actor);
  return row!;
}
