import { Type } from '@sinclair/typebox';

/** The records service's own settings (beside the kit's BaseConfigSchema), parsed once at start. */
export const RecordsConfigSchema = Type.Object({
  /** Hour (London) of the daily retention run; the run erases what the schedule says has expired. */
  RETENTION_RUN_HOUR: Type.Integer({ minimum: 0, maximum: 23, default: 2 }),
});
