import { startService } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { settingsPlugin } from './plugin.js';

const SettingsConfigSchema = Type.Object({
  // The defaults written on first start only; afterwards the settings live in PostgreSQL and change in /admin/settings.
  PRACTICE_NAME: Type.String({ minLength: 1, maxLength: 100, default: 'Countinghouse Accountants' }),
  PRACTICE_PHONE: Type.String({ minLength: 1, default: '020 7946 0321' }),
  PRACTICE_EMAIL: Type.String({ minLength: 3, default: 'hello@countinghouse.co.uk' }),
});

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
