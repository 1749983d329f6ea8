import type { Db, DbOrTx } from '@countinghouse/kit';
import type { PracticeSettings, PublicSettings, SettingChange, SettingField } from '@countinghouse/proto';
import { count, desc, eq, sql } from 'drizzle-orm';
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

export async function readSettingsRow(db: DbOrTx, opts: { forUpdate?: boolean } = {}): Promise<SettingsRow | null> {
  const q = db.select().from(practiceSettings).where(eq(practiceSettings.id, 1));
  const rows = opts.forUpdate ? await q.for('update') : await q;
  return rows[0] ?? null;
}

export interface SettingsWrite {
  name: string;
  phone: string;
  email: string;
  maintenance: boolean;
  by: { id: string; name: string };
}

/** Write the settings row and count a new version. */
export async function writeSettingsRow(tx: DbOrTx, w: SettingsWrite): Promise<SettingsRow> {
  const [after] = await tx
    .update(practiceSettings)
    .set({
      practiceName: w.name,
      contactPhone: w.phone,
      contactEmail: w.email,
      maintenance: w.maintenance,
      version: sql`${practiceSettings.version} + 1`,
      updatedAt: sql`now()`,
      updatedBy: w.by.id,
      updatedByName: w.by.name,
    })
    .where(eq(practiceSettings.id, 1))
    .returning();
  if (!after) throw new Error('settings: the practice_settings row is missing');
  return after;
}

/** One history row per changed field, with its value before and after. */
export async function recordChanges(
  tx: DbOrTx,
  changed: SettingField[],
  before: SettingsRow,
  after: SettingsRow,
  actor: { kind: string; id: string; name: string },
): Promise<void> {
  if (changed.length === 0) return;
  await tx.insert(settingChanges).values(
    changed.map((field) => ({
      field,
      oldValue: valueText(field, before),
      newValue: valueText(field, after),
      actorKind: actor.kind,
      actorId: actor.id,
      actorName: actor.name,
    })),
  );
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
