import { defineService, practiceFromConfig } from '@countinghouse/kit';
import { SETTINGS_ROUTES } from '@countinghouse/proto';
import { SettingsConfigSchema } from './config.js';
import { settingsPlugin } from './plugin.js';

/** The settings service: the practice's details and the maintenance switch (/admin/settings). */
export const service = defineService({
  name: 'settings',
  configSchema: SettingsConfigSchema,
  plugin: settingsPlugin,
  // PRACTICE_* are the defaults written on the first start only; afterwards the settings live in PostgreSQL.
  options: (config, host) => ({ runtime: host.runtime, defaults: practiceFromConfig(config) }),
  // the public settings (no token, nothing secret): identity, media and engagement read them directly
  unsignedGets: [SETTINGS_ROUTES.public],
});
