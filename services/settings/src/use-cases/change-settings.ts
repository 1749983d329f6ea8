import { AppError, enqueueEvent, type Db, type Principal } from '@countinghouse/kit';
import {
  normaliseSettingsPatch,
  SETTINGS_MESSAGES,
  validateSettingsPatch,
  type SettingField,
  type SettingsPatch,
} from '@countinghouse/proto';
import { readSettingsRow, recordChanges, toPublic, writeSettingsRow, type SettingsRow } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { changedFields } from '../domain/diff.js';

export interface SettingsDeps {
  db: Db;
}

export interface SettingsChange {
  row: SettingsRow;
  changed: SettingField[];
}

/**
 * Change any of name, phone, e-mail and maintenance. Each changed field is recorded in the history and
 * announced (settings.changed) in the same transaction; a patch that changes nothing writes nothing.
 */
export async function changeSettings(deps: SettingsDeps, principal: Principal, input: SettingsPatch): Promise<SettingsChange> {
  const patch = normaliseSettingsPatch(input);
  if (Object.keys(patch).length === 0) throw new AppError('VALIDATION_FAILED', SETTINGS_MESSAGES.nothingToChange);
  const problems = validateSettingsPatch(patch);
  if (problems.length > 0) throw new AppError('VALIDATION_FAILED', problems[0]!.message, problems);

  const actor = { kind: principal.kind, id: principal.id, name: principal.name || principal.id };
  return deps.db.transaction(async (tx) => {
    const before = await readSettingsRow(tx, { forUpdate: true });
    if (!before) throw new Error('settings: the practice_settings row is missing');
    const changed = changedFields(
      { name: before.practiceName, phone: before.contactPhone, email: before.contactEmail, maintenance: before.maintenance },
      patch,
    );
    if (changed.length === 0) return { row: before, changed };
    const after = await writeSettingsRow(tx, {
      name: patch.name ?? before.practiceName,
      phone: patch.phone ?? before.contactPhone,
      email: patch.email ?? before.contactEmail,
      maintenance: patch.maintenance ?? before.maintenance,
      by: actor,
    });
    await recordChanges(tx, changed, before, after, actor);
    await enqueueEvent(
      tx,
      SCHEMA,
      'settings.changed',
      { ...toPublic(after), changedFields: changed },
      { actor: { kind: actor.kind, id: actor.id }, key: 'practice' },
    );
    return { row: after, changed };
  });
}
