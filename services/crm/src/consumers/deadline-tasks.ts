import { subscribe, type ConsumerRuntime, type DbOrTx, type EventOf } from '@countinghouse/kit';
import { findClientAccountant, insertTaskOnce } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';

export const DEADLINE_TASKS_CONSUMER = 'crm.deadline-tasks';

/** Days before the due date from which a deadline task is high priority. */
const HIGH_PRIORITY_DAYS = 7;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * deadlines.task_requested → one crm task per idempotency key (tasks.source_key is unique), assigned to
 * the client's accountant. A redelivered event is skipped by its id; a second event with the same key
 * (a re-run) finds the task already there and opens nothing.
 */
export async function applyDeadlineTask(tx: DbOrTx, envelope: EventOf<'deadlines.task_requested'>): Promise<boolean> {
  const d = envelope.data;
  const client = UUID.test(d.clientId) ? await findClientAccountant(tx, d.clientId) : null;
  const daysLeft = Math.round((Date.parse(d.dueOn) - Date.parse(envelope.occurredAt.slice(0, 10))) / 86_400_000);
  return insertTaskOnce(tx, {
    title: d.title,
    description: d.description,
    clientId: client?.id ?? null,
    // crm's own record of the accountant wins (the event's may be a moment older).
    assigneeId: client?.accountant ?? (d.assigneeId && UUID.test(d.assigneeId) ? d.assigneeId : null),
    dueDate: d.dueOn,
    status: 'pending',
    priority: daysLeft <= HIGH_PRIORITY_DAYS ? 'high' : 'medium',
    sourceKey: d.idempotencyKey,
    deadlineId: d.deadlineId,
  });
}

export async function subscribeDeadlinesConsumer(runtime: ConsumerRuntime): Promise<void> {
  await subscribe(runtime, {
    group: DEADLINE_TASKS_CONSUMER,
    types: ['deadlines.task_requested'],
    schema: SCHEMA,
    handler: async (e, tx) => void (await applyDeadlineTask(tx, e)),
  });
}
