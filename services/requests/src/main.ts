import { followPracticeSettings, startService } from '@countinghouse/kit';
import { RequestsConfigSchema } from './config.js';
import { requestsPlugin } from './plugin.js';

await startService({
  name: 'requests',
  configSchema: RequestsConfigSchema,
  async register(scope, runtime, config) {
    // The practice's name and address in the e-mails follow /admin/settings, as in all-in-one.
    const practice = await followPracticeSettings({
      service: 'requests',
      bus: runtime.bus,
      logger: runtime.logger,
      defaults: { name: config.PRACTICE_NAME, phone: config.PRACTICE_PHONE, email: config.PRACTICE_EMAIL },
      settingsUrl: config.SETTINGS_URL,
    });
    scope.addHook('onClose', async () => practice.stop());
    await scope.register(requestsPlugin, { runtime, practice: () => practice.live.practice() });
  },
});
