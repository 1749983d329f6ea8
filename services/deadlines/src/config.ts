import { Type } from '@sinclair/typebox';

/** The deadlines service's own settings (beside the kit's BaseConfigSchema), parsed once at start. */
export const DeadlinesConfigSchema = Type.Object({
  /** Companies House Public Data API; without a key the company fields of a client are entered by hand. */
  COMPANIES_HOUSE_API_KEY: Type.String({ default: '' }),
  COMPANIES_HOUSE_BASE_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
});
