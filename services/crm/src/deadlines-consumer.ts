import { idempotent, type Db, type Runtime } from '@countinghouse/kit';
import { DeadlineTaskRequestedSchema, TOPICS, type EventData, type EventEnvelope } from '@countinghouse/proto';
import { Value } from '@sinclair/typebox/value';
import { eq, sql } from 'drizzle-orm';
import { SCHEMA, clients, tasks } from './db/schema.js';

export const DEADLINE_TASKS_CONSUMER = 'crm.deadline-tasks';

/** Days before the due date from which a deadline task is high priority. */
const HIGH_PRIORITY_DAYS = 7;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * deadlines.task_requested → one crm task per idempotency key (tasks.source_key is unique), assigned to
 * the client's accountant. A redelivered event is skipped by its id; a second event with the same key
 * (a re-run) finds the task already there and opens nothing.
 */
export async function applyDeadlineTask(tx: Db, envelope: EventEnvelope): Promise<boolean> {
  if (envelope.type !== 'deadlines.task_requested') return false;
  const d = envelope.data as EventData<'deadlines.task_requested'>;
  const [client] = UUID.test(d.clientId)
    ? await tx.select({ id: clients.id, accountant: clients.assignedAccountantId }).from(clients).where(eq(clients.id, d.clientId))
    : [];
  const daysLeft = Math.round((Date.parse(d.dueOn) - Date.parse(envelope.occurredAt.slice(0, 10))) / 86_400_000);
  const rows = await tx
    .insert(tasks)
    .values({
      title: d.title,
      description: d.description,
      clientId: client?.id ?? null,
      // crm's own record of the accountant wins (the event's may be a moment older).
      assigneeId: client?.accountant ?? (d.assigneeId && UUID.test(d.assigneeId) ? d.assigneeId : null),
      dueDate: d.dueOn,
      status: 'pending',
      priority: daysLeft <= HIGH_PRIORITY_DAYS ? 'high' : 'medium',
      sourceKey: d.idempotencyKey,
    })
    .onConflictDoNothing({ target: tasks.sourceKey, where: sql`${tasks.sourceKey} is not null` })
    .returning({ id: tasks.id });
  return rows.length > 0;
}

export async function subscribeDeadlinesConsumer(runtime: Runtime): Promise<void> {
  const apply = idempotent(
    runtime.db,
    SCHEMA,
    DEADLINE_TASKS_CONSUMER,
    async (envelope, tx) => void (await applyDeadlineTask(tx, envelope)),
  );
  await runtime.bus.subscribe({
    group: DEADLINE_TASKS_CONSUMER,
    topics: [TOPICS.deadlines],
    handler: async (envelope) => {
      if (envelope.type !== 'deadlines.task_requested') return;
      if (!Value.Check(DeadlineTaskRequestedSchema, envelope.data)) {
        runtime.logger.error({ eventId: envelope.id }, 'bad deadlines.task_requested skipped');
        return;
      }
      await apply(envelope);
    },
  });
}
