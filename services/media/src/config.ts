import { FollowsPracticeConfigProperties } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { DEFAULT_OPENAI_MODEL } from './adapters/generators/openai.js';

/** The media service's own settings (beside the kit's BaseConfigSchema), parsed once at start. */
export const MediaConfigSchema = Type.Object({
  /** Empty: scripts come from the built-in template generator. */
  OPENAI_API_KEY: Type.String({ default: '' }),
  /** Any OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1; empty means OpenAI itself. */
  OPENAI_BASE_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
  OPENAI_MODEL: Type.String({ minLength: 1, default: DEFAULT_OPENAI_MODEL }),
  OPENAI_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 600_000, default: 60_000 }),
  /** Until the settings service answers: afterwards the details follow /admin/settings (settings.changed). */
  ...FollowsPracticeConfigProperties,
});
