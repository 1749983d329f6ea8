import { PracticeConfigProperties } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';

/** The settings service's own settings (beside the kit's BaseConfigSchema), parsed once at start. */
export const SettingsConfigSchema = Type.Object({
  // The defaults written on first start only; afterwards the settings live in PostgreSQL and change in /admin/settings.
  ...PracticeConfigProperties,
});
