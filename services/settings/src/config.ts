import { Type } from '@sinclair/typebox';

/** The settings service's own settings (beside the kit's BaseConfigSchema), parsed once at start. */
export const SettingsConfigSchema = Type.Object({
  // The defaults written on first start only; afterwards the settings live in PostgreSQL and change in /admin/settings.
  PRACTICE_NAME: Type.String({ minLength: 1, maxLength: 100, default: 'Countinghouse Accountants' }),
  PRACTICE_PHONE: Type.String({ minLength: 1, default: '020 7946 0321' }),
  PRACTICE_EMAIL: Type.String({ minLength: 3, default: 'hello@countinghouse.co.uk' }),
});
