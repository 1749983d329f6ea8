import { subscribe, type ConsumerRuntime } from '@countinghouse/kit';
import { savePracticeVerification } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { recomputeClient } from '../use-cases/recompute-client.js';

export const IDENTITY_VERIFICATIONS_CONSUMER = 'deadlines.identity-verifications';

/**
 * aml.identity_verification_recorded → the practice's own ACSP verification of a person (aml owns the
 * people and the record): the person shows verified here and their deadline goes; a withdrawn record
 * (deleted after seven years) no longer counts.
 */
export async function subscribeIdentityVerifications(runtime: ConsumerRuntime, today: () => string): Promise<void> {
  await subscribe(runtime, {
    group: IDENTITY_VERIFICATIONS_CONSUMER,
    types: ['aml.identity_verification_recorded'],
    schema: SCHEMA,
    handler: async ({ data: d }, tx) => {
      await savePracticeVerification(tx, {
        clientId: d.clientId,
        personKey: d.personKey,
        verifiedOn: d.verifiedOn,
        byName: d.byName,
        withdrawn: d.withdrawn,
      });
      await recomputeClient(tx, d.clientId, today(), 'companies_house');
    },
  });
}
