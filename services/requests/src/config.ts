import { FollowsPracticeConfigProperties } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';

/** The requests service's own settings (beside the kit's BaseConfigSchema), parsed once at start. */
export const RequestsConfigSchema = Type.Object({
  /** Until the settings service answers: afterwards the details follow /admin/settings (settings.changed). */
  ...FollowsPracticeConfigProperties,
});
