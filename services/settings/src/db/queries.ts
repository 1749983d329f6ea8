import type { Db } from '@countinghouse/kit';
import type { PracticeSettings, PublicSettings, SettingChange, SettingField } from '@countinghouse/proto';
import { count, desc, eq } from 'drizzle-orm';
import { practiceSettings, settingChanges } from './schema.js';

export type SettingsRow = typeof practiceSettings.$inferSelect;

export interface PracticeDefaults {
  name: string;
  phone: string;
  email: string;
}

/** Write the defaults when the row does not exist yet (first start); an existing row is left alone. */
export async function ensureSettings(db: Db, defaults: PracticeDefaults): Promise<void> {
  await db
    .insert(practiceSettings)
    .values({ id: 1, practiceName: defaults.name, contactPhone: defaults.phone, contactEmail: defaults.email })
    .onConflictDoNothing();
}

export async function readSettingsRow(db: Db, opts: { forUpdate?: boolean } = {}): Promise<SettingsRow | null> {
  const q = db.select().from(practiceSettings).where(eq(practiceSettings.id, 1));
  const rows = opts.forUpdate ? await q.for('update') : await q;
  return rows[0] ?? null;
}

export function toPublic(row: SettingsRow): PublicSettings {
  return { name: row.practiceName, phone: row.contactPhone, email: row.contactEmail, maintenance: row.maintenance, version: row.version };
}

export function toSettings(row: SettingsRow): PracticeSettings {
  return { ...toPublic(row), updated_at: row.updatedAt.toISOString(), updated_by: row.updatedByName };
}

/** The stored text of a field's value, as the history shows it. */
export function valueText(field: SettingField, row: SettingsRow): string {
  switch (field) {
    case 'name':
      return row.practiceName;
    case 'phone':
      return row.contactPhone;
    case 'email':
      return row.contactEmail;
    case 'maintenance':
      return row.maintenance ? 'on' : 'off';
  }
}

export async function listChanges(db: Db, page: number, pageSize: number): Promise<{ changes: SettingChange[]; total: number }> {
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(settingChanges)
      .orderBy(desc(settingChanges.changedAt), desc(settingChanges.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(settingChanges),
  ]);
  return {
    total: totalRow?.n ?? 0,
    changes: rows.map((r) => ({
      id: r.id,
      field: r.field,
      old_value: r.oldValue,
      new_value: r.newValue,
      actor_id: r.actorId,
      actor_name: r.actorName,
      changed_at: r.changedAt.toISOString(),
    })),
  };
}
