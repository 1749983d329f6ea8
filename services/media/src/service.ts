import { ConfigError, defineService } from '@countinghouse/kit';
import { MediaConfigSchema } from './config.js';
import { mediaPlugin } from './plugin.js';

/** The media service: video scripts from an OpenAI-compatible provider, or the built-in template generator. */
export const service = defineService({
  name: 'media',
  configSchema: MediaConfigSchema,
  checkConfig(config) {
    // A provider without a key would silently fall back to the template generator: say so at start.
    if (config.OPENAI_BASE_URL && !config.OPENAI_API_KEY)
      throw new ConfigError(
        'Invalid configuration:\n  - OPENAI_API_KEY: required with OPENAI_BASE_URL (a local server that needs no key accepts any value)',
      );
  },
  plugin: mediaPlugin,
  // the practice details in every script follow /admin/settings
  options: (config, host) => ({
    runtime: host.runtime,
    practice: host.practice,
    openai: config.OPENAI_API_KEY
      ? { apiKey: config.OPENAI_API_KEY, baseUrl: config.OPENAI_BASE_URL, model: config.OPENAI_MODEL, timeoutMs: config.OPENAI_TIMEOUT_MS }
      : null,
  }),
});
