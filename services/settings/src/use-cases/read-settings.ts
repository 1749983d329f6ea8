import type { PracticeSettings, PublicSettings, SettingChangeList, SettingChangesQuery } from '@countinghouse/proto';
import { listChanges, readSettingsRow, toPublic, toSettings, type SettingsRow } from '../db/queries.js';
import type { SettingsDeps } from './change-settings.js';

async function current(deps: SettingsDeps): Promise<SettingsRow> {
  const row = await readSettingsRow(deps.db);
  // The plugin writes the row at start; its absence means the database was changed under us.
  if (!row) throw new Error('settings: the practice_settings row is missing');
  return row;
}

/** What anyone may read (no token): the practice's name and contacts, and the maintenance switch. */
export async function getPublicSettings(deps: SettingsDeps): Promise<PublicSettings> {
  return toPublic(await current(deps));
}

/** The company settings with who changed them last (the route guards who may ask). */
export async function getSettings(deps: SettingsDeps): Promise<PracticeSettings> {
  return toSettings(await current(deps));
}

/** One page of the change history, newest first. */
export async function findSettingChanges(deps: SettingsDeps, query: SettingChangesQuery): Promise<SettingChangeList> {
  const { changes, total } = await listChanges(deps.db, query.page, query.page_size);
  return { changes, total, page: query.page, page_size: query.page_size };
}
