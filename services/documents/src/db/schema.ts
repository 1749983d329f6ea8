import { outboxTables } from '@countinghouse/kit';
import { pgSchema } from 'drizzle-orm/pg-core';

export const SCHEMA = 'documents';
export const documents = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(documents);
