import { subscribeClientDirectory as subscribeDirectory, type ConsumerRuntime } from '@countinghouse/kit';
import { upsertDirectory } from '../db/queries.js';
import { clientDirectory, SCHEMA } from '../db/schema.js';
import { applySignupCompany, type SignupCompanyHooks } from './signup-company.js';

export const CLIENT_DIRECTORY_CONSUMER = 'deadlines.client-directory';

/**
 * crm.client_upserted → the client directory (name, owner, accountant, status, business type, contact,
 * package and fee): the kit's consumer, written by upsertDirectory (a lock first, the fee history and
 * the accountant on the client's rows after); checked against proto and applied once per event id. A
 * company number the client gave at sign-up, waiting for this record, then becomes its tax profile's
 * (consumers/signup-company.ts).
 */
export async function subscribeClientDirectory(runtime: ConsumerRuntime, signup?: SignupCompanyHooks): Promise<void> {
  await subscribeDirectory(runtime, {
    group: CLIENT_DIRECTORY_CONSUMER,
    schema: SCHEMA,
    table: clientDirectory,
    extra: (d) => ({
      businessType: d.businessType ?? null,
      subscriptionStatus: d.subscriptionStatus,
      contactName: d.contactName,
      contactEmail: d.contactEmail,
      packageName: d.packageName,
      monthlyFeePence: Math.round(d.monthlyFee * 100),
    }),
    write: (tx, row, event) => upsertDirectory(tx, row, event.occurredAt),
    then: async (tx, { data: d }) => {
      if (signup && d.userId) await applySignupCompany(tx, d.userId, signup);
    },
  });
}
