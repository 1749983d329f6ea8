import { subscribe, type ConsumerRuntime } from '@countinghouse/kit';
import { upsertDirectory } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { applySignupCompany, type SignupCompanyHooks } from './signup-company.js';

export const CLIENT_DIRECTORY_CONSUMER = 'deadlines.client-directory';

/**
 * crm.client_upserted → the client directory (name, owner, accountant, status, business type);
 * checked against proto and applied once per event id by the kit. A company number the client gave at
 * sign-up, waiting for this record, then becomes its tax profile's (consumers/signup-company.ts).
 */
export async function subscribeClientDirectory(runtime: ConsumerRuntime, signup?: SignupCompanyHooks): Promise<void> {
  await subscribe(runtime, {
    group: CLIENT_DIRECTORY_CONSUMER,
    types: ['crm.client_upserted'],
    schema: SCHEMA,
    handler: async ({ data: d, occurredAt }, tx) => {
      await upsertDirectory(tx, {
        clientId: d.clientId,
        userId: d.userId,
        companyName: d.companyName,
        businessType: d.businessType ?? null,
        status: d.subscriptionStatus,
        accountantId: d.assignedAccountantId,
        contactName: d.contactName,
        contactEmail: d.contactEmail,
        packageName: d.packageName,
        monthlyFeePence: Math.round(d.monthlyFee * 100),
        at: occurredAt,
      });
      if (signup && d.userId) await applySignupCompany(tx, d.userId, signup);
    },
  });
}
