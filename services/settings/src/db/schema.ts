import { outboxTables } from '@countinghouse/kit';
import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, pgSchema, smallint, text, timestamp } from 'drizzle-orm/pg-core';

export const SCHEMA = 'settings';
export const settings = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(settings);

/** The practice's settings: one row (id 1), seeded from the launcher's PRACTICE_* values on first start. */
export const practiceSettings = settings.table(
  'practice_settings',
  {
    id: smallint('id').primaryKey().default(1),
    practiceName: text('practice_name').notNull(),
    contactPhone: text('contact_phone').notNull(),
    contactEmail: text('contact_email').notNull(),
    maintenance: boolean('maintenance').notNull().default(false),
    /** +1 on every change; events carry it so a gateway never applies an older state over a newer one. */
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Who changed them last (admin id or user id); null for the seeded defaults. */
    updatedBy: text('updated_by'),
    updatedByName: text('updated_by_name'),
  },
  (t) => [check('practice_settings_single_row', sql`${t.id} = 1`)],
);

/** Every change, one row per field: who, when, old and new value. Written with the change itself. */
export const settingChanges = settings.table(
  'setting_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    field: text('field').notNull(),
    oldValue: text('old_value'),
    newValue: text('new_value').notNull(),
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id').notNull(),
    actorName: text('actor_name').notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('setting_changes_changed_idx').on(t.changedAt.desc(), t.id.desc()),
    check('setting_changes_field_check', sql`${t.field} in ('name', 'phone', 'email', 'maintenance')`),
  ],
);
