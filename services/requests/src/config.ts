import { Type } from '@sinclair/typebox';

/** The requests service's own settings (beside the kit's BaseConfigSchema), parsed once at start. */
export const RequestsConfigSchema = Type.Object({
  /** Until the settings service answers: afterwards the name follows /admin/settings (settings.changed). */
  PRACTICE_NAME: Type.String({ default: 'Countinghouse Accountants' }),
  PRACTICE_PHONE: Type.String({ default: '020 7946 0321' }),
  PRACTICE_EMAIL: Type.String({ default: 'hello@countinghouse.co.uk' }),
  /** The settings service, read once at start for the current practice details (empty: events only). */
  SETTINGS_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
});
