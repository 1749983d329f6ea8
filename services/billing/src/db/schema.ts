import { outboxTables } from '@countinghouse/kit';
import { pgSchema } from 'drizzle-orm/pg-core';

export const SCHEMA = 'billing';
export const billing = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(billing);
