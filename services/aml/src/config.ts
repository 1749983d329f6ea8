import { Type } from '@sinclair/typebox';

/** The AML service's own settings (beside the kit's BaseConfigSchema), parsed once at start. */
export const AmlConfigSchema = Type.Object({
  /** How long adding identity evidence waits for the documents service to announce the upload (ms). */
  AML_EVIDENCE_WAIT_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 5_000 }),
});
