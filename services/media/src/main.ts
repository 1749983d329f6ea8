import { ConfigError, followPracticeSettings, startService } from '@countinghouse/kit';
import { MediaConfigSchema } from './config.js';
import { mediaPlugin } from './plugin.js';

await startService({
  name: 'media',
  configSchema: MediaConfigSchema,
  async register(scope, runtime, config) {
    if (config.OPENAI_BASE_URL && !config.OPENAI_API_KEY) {
      // A provider without a key would silently fall back to the template generator: say so at boot.
      throw new ConfigError(
        'media: OPENAI_BASE_URL is set but OPENAI_API_KEY is empty (a local server that needs no key accepts any value).',
      );
    }
    // The practice details in every script follow /admin/settings, as in all-in-one.
    const practice = await followPracticeSettings({
      service: 'media',
      bus: runtime.bus,
      logger: runtime.logger,
      defaults: { name: config.PRACTICE_NAME, phone: config.PRACTICE_PHONE, email: config.PRACTICE_EMAIL },
      settingsUrl: config.SETTINGS_URL,
    });
    scope.addHook('onClose', async () => practice.stop());
    await scope.register(mediaPlugin, {
      runtime,
      practice: () => practice.live.practice(),
      openai: config.OPENAI_API_KEY
        ? {
            apiKey: config.OPENAI_API_KEY,
            baseUrl: config.OPENAI_BASE_URL,
            model: config.OPENAI_MODEL,
            timeoutMs: config.OPENAI_TIMEOUT_MS,
          }
        : null,
    });
  },
});
