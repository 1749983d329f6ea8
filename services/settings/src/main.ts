import { startService } from '@countinghouse/kit';
import { SettingsConfigSchema } from './config.js';
import { settingsPlugin } from './plugin.js';

await startService({
  name: 'settings',
  configSchema: SettingsConfigSchema,
  async register(scope, runtime, config) {
    await scope.register(settingsPlugin, {
      runtime,
      defaults: { name: config.PRACTICE_NAME, phone: config.PRACTICE_PHONE, email: config.PRACTICE_EMAIL },
    });
  },
});
