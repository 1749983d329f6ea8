import { outboxTables } from '@countinghouse/kit';
import { pgSchema } from 'drizzle-orm/pg-core';

export const SCHEMA = 'integrations';
export const integrations = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(integrations);
