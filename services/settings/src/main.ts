import { startService } from '@countinghouse/kit';
import { SETTINGS_ROUTES } from '@countinghouse/proto';
import { SettingsConfigSchema } from './config.js';
import { settingsPlugin } from './plugin.js';

await startService({
  name: 'settings',
  configSchema: SettingsConfigSchema,
  // the public settings (no token, nothing secret): identity, media and engagement read them directly
  unsignedGets: [SETTINGS_ROUTES.public],
  async register(scope, runtime, config) {
    await scope.register(settingsPlugin, {
      runtime,
      defaults: { name: config.PRACTICE_NAME, phone: config.PRACTICE_PHONE, email: config.PRACTICE_EMAIL },
    });
  },
});
