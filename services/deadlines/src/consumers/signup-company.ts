import { subscribe, type ConsumerRuntime, type Tx } from '@countinghouse/kit';
import { validateCompanyNumber } from '@countinghouse/proto';
import { eq } from 'drizzle-orm';
import { clientDirectory, SCHEMA, signupCompanies } from '../db/schema.js';
import { profileOf, readProfile, saveProfile } from '../db/queries.js';
import { recomputeClient } from '../use-cases/recompute-client.js';

export const SIGNUP_COMPANY_CONSUMER = 'deadlines.signup-company';

/** Who set the profile's company number, in its history: the client, at sign-up. */
const SIGNUP_ACTOR = { id: 'signup', name: 'The client, at sign-up' } as const;

/**
 * The company number a client gave at sign-up becomes their tax profile's (issue 33, decision 665), once
 * both halves are here: billing's event with the number (keyed by the person) and crm's client record
 * for that person in the directory. They arrive on different topics in either order, so each side calls
 * this; the number waits in signup_companies until it is used. A number staff already entered is kept.
 * A client whose profile gets the number is handed to `hooks.linked` (read from Companies House).
 */
export async function applySignupCompany(tx: Tx, userId: string, hooks: SignupCompanyHooks): Promise<void> {
  const [pending] = await tx.select().from(signupCompanies).where(eq(signupCompanies.userId, userId));
  if (!pending) return;
  const [entry] = await tx.select().from(clientDirectory).where(eq(clientDirectory.userId, userId)).limit(1);
  if (!entry) return;
  await tx.delete(signupCompanies).where(eq(signupCompanies.userId, userId));
  const row = await readProfile(tx, entry.clientId);
  if (row?.companyNumber) return;
  await saveProfile(tx, entry.clientId, { ...profileOf(row), company_number: pending.companyNumber }, pending.companyNumber, SIGNUP_ACTOR);
  await recomputeClient(tx, entry.clientId, hooks.today(), 'profile');
  await hooks.linked(entry.clientId);
}

export interface SignupCompanyHooks {
  today: () => string;
  /** Read the newly linked company from Companies House (a job: the consumer does not wait for it). */
  linked: (clientId: string) => Promise<void>;
}

/** billing.subscription_activated → the sign-up's company number, kept until its client is known. */
export async function subscribeSignupCompany(runtime: ConsumerRuntime, hooks: SignupCompanyHooks): Promise<void> {
  await subscribe(runtime, {
    group: SIGNUP_COMPANY_CONSUMER,
    types: ['billing.subscription_activated'],
    schema: SCHEMA,
    handler: async ({ data: d }, tx) => {
      const n = d.companyNumber ? validateCompanyNumber(d.companyNumber) : null;
      if (!n?.ok) return;
      await tx.insert(signupCompanies).values({ userId: d.userId, companyNumber: n.value }).onConflictDoNothing();
      await applySignupCompany(tx, d.userId, hooks);
    },
  });
}
