import { outboxTables } from '@countinghouse/kit';
import { pgSchema } from 'drizzle-orm/pg-core';

export const SCHEMA = 'media';
export const media = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(media);
