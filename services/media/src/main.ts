import { ConfigError, startService } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { DEFAULT_OPENAI_MODEL, mediaPlugin } from './plugin.js';

const MediaConfigSchema = Type.Object({
  /** Empty: scripts come from the built-in template generator. */
  OPENAI_API_KEY: Type.String({ default: '' }),
  /** Any OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1; empty means OpenAI itself. */
  OPENAI_BASE_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
  OPENAI_MODEL: Type.String({ minLength: 1, default: DEFAULT_OPENAI_MODEL }),
  OPENAI_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 600_000, default: 60_000 }),
  PRACTICE_NAME: Type.String({ default: 'Countinghouse Accountants' }),
  PRACTICE_PHONE: Type.String({ default: '020 7946 0321' }),
  PRACTICE_EMAIL: Type.String({ default: 'hello@countinghouse.co.uk' }),
});

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
    await scope.register(mediaPlugin, {
      runtime,
      practice: { name: config.PRACTICE_NAME, phone: config.PRACTICE_PHONE, email: config.PRACTICE_EMAIL },
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
