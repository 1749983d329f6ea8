import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, primaryKey, text, timestamp, uuid, type PgSchema } from 'drizzle-orm/pg-core';

/**
 * The outbox and processed-event tables every service keeps in its own schema. A service's
 * `db/schema.ts` spreads these in, so drizzle-kit generates them into its migrations.
 */
export function outboxTables(schema: PgSchema) {
  const outbox = schema.table(
    'outbox',
    {
      id: bigserial('id', { mode: 'number' }).primaryKey(),
      eventId: uuid('event_id').notNull().unique(),
      topic: text('topic').notNull(),
      key: text('key'),
      type: text('type').notNull(),
      envelope: jsonb('envelope').notNull(),
      createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
      publishedAt: timestamp('published_at', { withTimezone: true }),
      attempts: integer('attempts').notNull().default(0),
      lastError: text('last_error'),
    },
    (t) => [
      index('outbox_unpublished_idx')
        .on(t.id)
        .where(sql`published_at is null`),
    ],
  );
  const processedEvents = schema.table(
    'processed_events',
    {
      consumer: text('consumer').notNull(),
      eventId: uuid('event_id').notNull(),
      processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [primaryKey({ columns: [t.consumer, t.eventId] })],
  );
  return { outbox, processedEvents };
}
