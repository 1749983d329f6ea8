import { subscribe, type ConsumerRuntime, type DbOrTx, type EventOf } from '@countinghouse/kit';
import { findClientAccountant, insertTaskOnce } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';

export const AML_REVIEW_TASKS_CONSUMER = 'crm.aml-review-tasks';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * aml.review_due → one crm task for the client's accountant per idempotency key
 * (`aml-review:<client>:<review date>`, tasks.source_key is unique), due on the review date, high
 * priority: a file past its review date expires and the client is back to "Due diligence outstanding".
 * A redelivered event is skipped by its id; a second event with the same key opens nothing.
 */
export async function applyAmlReviewTask(tx: DbOrTx, envelope: EventOf<'aml.review_due'>): Promise<boolean> {
  const d = envelope.data;
  const client = UUID.test(d.clientId) ? await findClientAccountant(tx, d.clientId) : null;
  return insertTaskOnce(tx, {
    title: d.title,
    description: d.description,
    clientId: client?.id ?? null,
    // crm's own record of the accountant wins (the event's may be a moment older).
    assigneeId: client?.accountant ?? (d.assigneeId && UUID.test(d.assigneeId) ? d.assigneeId : null),
    dueDate: d.nextReviewOn,
    status: 'pending',
    priority: 'high',
    sourceKey: d.idempotencyKey,
  });
}

export async function subscribeAmlConsumer(runtime: ConsumerRuntime): Promise<void> {
  await subscribe(runtime, {
    group: AML_REVIEW_TASKS_CONSUMER,
    types: ['aml.review_due'],
    schema: SCHEMA,
    handler: async (e, tx) => void (await applyAmlReviewTask(tx, e)),
  });
}
