import { FollowsPracticeConfigProperties } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';

/** The identity service's own settings (beside the kit's BaseConfigSchema), parsed once at start. */
export const IdentityConfigSchema = Type.Object({
  JWT_PRIVATE_KEY: Type.String({ default: '' }),
  JWT_PRIVATE_KEY_FILE: Type.String({ default: '' }),
  /** AES-256-GCM key of the second-factor secrets at rest (base64 of 32 bytes), or a file holding it (issue 32). */
  IDENTITY_ENCRYPTION_KEY: Type.String({ default: '' }),
  IDENTITY_ENCRYPTION_KEY_FILE: Type.String({ default: '' }),
  ADMIN_USERNAME: Type.String({ default: 'admin' }),
  ADMIN_PASSWORD: Type.String({ default: '' }),
  COOKIE_SECURE: Type.Boolean({ default: false }),
  SMTP_URL: Type.String({ default: '' }),
  MAIL_FROM: Type.String({ default: '' }),
  /** Until the settings service answers: afterwards the name follows /admin/settings (settings.changed). */
  ...FollowsPracticeConfigProperties,
});
