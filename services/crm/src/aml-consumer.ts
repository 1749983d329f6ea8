import { idempotent, type Db, type Runtime } from '@countinghouse/kit';
import { AmlReviewDueSchema, TOPICS, type EventData, type EventEnvelope } from '@countinghouse/proto';
import { Value } from '@sinclair/typebox/value';
import { eq, sql } from 'drizzle-orm';
import { SCHEMA, clients, tasks } from './db/schema.js';

export const AML_REVIEW_TASKS_CONSUMER = 'crm.aml-review-tasks';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * aml.review_due → one crm task for the client's accountant per idempotency key
 * (`aml-review:<client>:<review date>`, tasks.source_key is unique), due on the review date, high
 * priority: a file past its review date expires and the client is back to "Due diligence outstanding".
 * A redelivered event is skipped by its id; a second event with the same key opens nothing.
 */
export async function applyAmlReviewTask(tx: Db, envelope: EventEnvelope): Promise<boolean> {
  if (envelope.type !== 'aml.review_due') return false;
  const d = envelope.data as EventData<'aml.review_due'>;
  const [client] = UUID.test(d.clientId)
    ? await tx.select({ id: clients.id, accountant: clients.assignedAccountantId }).from(clients).where(eq(clients.id, d.clientId))
    : [];
  const rows = await tx
    .insert(tasks)
    .values({
      title: d.title,
      description: d.description,
      clientId: client?.id ?? null,
      // crm's own record of the accountant wins (the event's may be a moment older).
      assigneeId: client?.accountant ?? (d.assigneeId && UUID.test(d.assigneeId) ? d.assigneeId : null),
      dueDate: d.nextReviewOn,
      status: 'pending',
      priority: 'high',
      sourceKey: d.idempotencyKey,
    })
    .onConflictDoNothing({ target: tasks.sourceKey, where: sql`${tasks.sourceKey} is not null` })
    .returning({ id: tasks.id });
  return rows.length > 0;
}

export async function subscribeAmlConsumer(runtime: Runtime): Promise<void> {
  const apply = idempotent(
    runtime.db,
    SCHEMA,
    AML_REVIEW_TASKS_CONSUMER,
    async (envelope, tx) => void (await applyAmlReviewTask(tx, envelope)),
  );
  await runtime.bus.subscribe({
    group: AML_REVIEW_TASKS_CONSUMER,
    topics: [TOPICS.aml],
    handler: async (envelope) => {
      if (envelope.type !== 'aml.review_due') return;
      if (!Value.Check(AmlReviewDueSchema, envelope.data)) {
        runtime.logger.error({ eventId: envelope.id }, 'bad aml.review_due skipped');
        return;
      }
      await apply(envelope);
    },
  });
}
