import { readPem, startService, TokenSigner } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { ensureInitialAdmin, identityPlugin } from './plugin.js';

const IdentityConfigSchema = Type.Object({
  JWT_PRIVATE_KEY: Type.String({ default: '' }),
  JWT_PRIVATE_KEY_FILE: Type.String({ default: '' }),
  ADMIN_USERNAME: Type.String({ default: 'admin' }),
  ADMIN_PASSWORD: Type.String({ default: '' }),
  COOKIE_SECURE: Type.Boolean({ default: false }),
  SMTP_URL: Type.String({ default: '' }),
  MAIL_FROM: Type.String({ default: '' }),
  PRACTICE_NAME: Type.String({ default: 'Countinghouse Accountants' }),
  /** The From address when MAIL_FROM is empty (the practice e-mail of Company Settings). */
  PRACTICE_EMAIL: Type.String({ default: 'hello@countinghouse.co.uk' }),
});

await startService({
  name: 'identity',
  configSchema: IdentityConfigSchema,
  async register(scope, runtime, config) {
    const pem = readPem(config.JWT_PRIVATE_KEY, config.JWT_PRIVATE_KEY_FILE);
    if (!pem) throw new Error('identity: JWT_PRIVATE_KEY or JWT_PRIVATE_KEY_FILE is required');
    const signer = await TokenSigner.fromPem(pem);
    await scope.register(identityPlugin, {
      runtime,
      signer,
      cookieSecure: config.COOKIE_SECURE,
      smtpUrl: config.SMTP_URL,
      mailFrom: config.MAIL_FROM,
      practiceName: config.PRACTICE_NAME,
      practiceEmail: config.PRACTICE_EMAIL,
    });
    const made = await ensureInitialAdmin(runtime.db, { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD || undefined });
    if (made.generatedPassword) {
      process.stdout.write(
        `\nFirst administrator created: username "${config.ADMIN_USERNAME}", password "${made.generatedPassword}" (shown once).\n\n`,
      );
    }
  },
});
