import { outboxTables } from '@countinghouse/kit';
import { pgSchema } from 'drizzle-orm/pg-core';

export const SCHEMA = 'crm';
export const crm = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(crm);
