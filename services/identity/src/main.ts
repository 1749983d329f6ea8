import { followPracticeSettings, readPem, startService, TokenSigner } from '@countinghouse/kit';
import { readFileSync } from 'node:fs';
import { IdentityConfigSchema } from './config.js';
import { ensureInitialAdmin, identityPlugin } from './plugin.js';

await startService({
  name: 'identity',
  configSchema: IdentityConfigSchema,
  async register(scope, runtime, config) {
    const pem = readPem(config.JWT_PRIVATE_KEY, config.JWT_PRIVATE_KEY_FILE);
    if (!pem) throw new Error('identity: JWT_PRIVATE_KEY or JWT_PRIVATE_KEY_FILE is required');
    const signer = await TokenSigner.fromPem(pem);
    // The practice name in e-mails follows /admin/settings, as in all-in-one.
    const practice = await followPracticeSettings({
      service: 'identity',
      bus: runtime.bus,
      logger: runtime.logger,
      defaults: { name: config.PRACTICE_NAME, phone: config.PRACTICE_PHONE, email: config.PRACTICE_EMAIL },
      settingsUrl: config.SETTINGS_URL,
    });
    scope.addHook('onClose', async () => practice.stop());
    await scope.register(identityPlugin, {
      runtime,
      signer,
      cookieSecure: config.COOKIE_SECURE,
      smtpUrl: config.SMTP_URL,
      mailFrom: config.MAIL_FROM,
      practiceName: () => practice.live.get().name,
      practiceEmail: () => practice.live.get().email,
      secretKey: config.IDENTITY_ENCRYPTION_KEY_FILE
        ? readFileSync(config.IDENTITY_ENCRYPTION_KEY_FILE, 'utf8').trim()
        : config.IDENTITY_ENCRYPTION_KEY || undefined,
      production: config.NODE_ENV === 'production',
    });
    const made = await ensureInitialAdmin(runtime.db, { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD || undefined });
    if (made.generatedPassword) {
      process.stdout.write(
        `\nFirst administrator created: username "${config.ADMIN_USERNAME}", password "${made.generatedPassword}" (shown once).\n\n`,
      );
    }
  },
});
