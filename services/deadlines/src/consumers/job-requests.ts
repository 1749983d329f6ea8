import { subscribe, type ConsumerRuntime } from '@countinghouse/kit';
import { requestCompleted, requestOpened } from '../db/job-queries.js';
import { SCHEMA } from '../db/schema.js';

export const JOB_REQUESTS_CONSUMER = 'deadlines.job-requests';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * requests.request_opened (for a deadline) / requests.request_completed → the deadline's job shows it
 * waits on the client while the request is open (issue 29).
 */
export async function subscribeJobRequests(runtime: ConsumerRuntime): Promise<void> {
  await subscribe(runtime, {
    group: JOB_REQUESTS_CONSUMER,
    types: ['requests.request_opened', 'requests.request_completed'],
    schema: SCHEMA,
    handler: async (e, tx) => {
      if (e.type === 'requests.request_opened') {
        // Only a deadline of this service (a uuid) has a job.
        if (e.data.deadlineId && UUID.test(e.data.deadlineId))
          await requestOpened(tx, {
            requestId: e.data.requestId,
            clientId: e.data.clientId,
            deadlineId: e.data.deadlineId,
            title: e.data.title,
          });
        return;
      }
      await requestCompleted(tx, e.data.requestId);
    },
  });
}
