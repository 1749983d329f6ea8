import { followPracticeSettings, startService } from '@countinghouse/kit';
import { EngagementConfigSchema } from './config.js';
import { engagementPlugin } from './plugin.js';

await startService({
  name: 'engagement',
  configSchema: EngagementConfigSchema,
  async register(scope, runtime, config) {
    // The practice details in every letter follow /admin/settings, as in all-in-one.
    const practice = await followPracticeSettings({
      service: 'engagement',
      bus: runtime.bus,
      logger: runtime.logger,
      defaults: { name: config.PRACTICE_NAME, phone: config.PRACTICE_PHONE, email: config.PRACTICE_EMAIL },
      settingsUrl: config.SETTINGS_URL,
    });
    scope.addHook('onClose', async () => practice.stop());
    await scope.register(engagementPlugin, { runtime, practice: () => practice.live.practice() });
  },
});
