import { subscribe, type ConsumerRuntime } from '@countinghouse/kit';
import { saveMtdObligations } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { recomputeClient } from '../use-cases/recompute-client.js';

export const MTD_OBLIGATIONS_CONSUMER = 'deadlines.mtd-obligations';

/**
 * integrations.mtd_obligations_updated → HMRC's MTD for Income Tax obligations of a client (issue 31):
 * kept when newer than the set held, then the client's deadlines recomputed, so HMRC's periods and due
 * dates replace the computed ones and what HMRC has received is marked done.
 */
export async function subscribeMtdObligations(runtime: ConsumerRuntime, today: () => string): Promise<void> {
  await subscribe(runtime, {
    group: MTD_OBLIGATIONS_CONSUMER,
    types: ['integrations.mtd_obligations_updated'],
    schema: SCHEMA,
    handler: async ({ data: d }, tx) => {
      if (!(await saveMtdObligations(tx, d.clientId, new Date(d.refreshedAt), d.obligations))) return;
      await recomputeClient(tx, d.clientId, today(), 'hmrc');
    },
  });
}
