import { defineService, readPem, TokenSigner } from '@countinghouse/kit';
import { readFileSync } from 'node:fs';
import { IdentityConfigSchema } from './config.js';
import { ensureInitialAdmin, identityPlugin } from './plugin.js';

/** The identity service: people, sign-in and two-factor, sessions, invitations, roles. */
export const service = defineService({
  name: 'identity',
  configSchema: IdentityConfigSchema,
  // second-factor secrets at rest (issue 32): a key made once in DATA_DIR/keys unless IDENTITY_ENCRYPTION_KEY(_FILE) is set
  secrets: [{ env: 'IDENTITY_ENCRYPTION_KEY', file: 'identity-secrets.key', bytes: 32, encoding: 'base64' }],
  plugin: identityPlugin,
  async options(config, host) {
    // the all-in-one signs with its one signer; a standalone identity with its private key
    const pem = host.signer ? '' : readPem(config.JWT_PRIVATE_KEY, config.JWT_PRIVATE_KEY_FILE);
    if (!host.signer && !pem) throw new Error('identity: JWT_PRIVATE_KEY or JWT_PRIVATE_KEY_FILE is required');
    return {
      runtime: host.runtime,
      signer: host.signer ?? (await TokenSigner.fromPem(pem)),
      cookieSecure: config.COOKIE_SECURE,
      smtpUrl: config.SMTP_URL,
      mailFrom: config.MAIL_FROM,
      // the practice name in e-mails follows /admin/settings
      practiceName: () => host.practice().name,
      practiceEmail: () => host.practice().email,
      secretKey: config.IDENTITY_ENCRYPTION_KEY_FILE
        ? readFileSync(config.IDENTITY_ENCRYPTION_KEY_FILE, 'utf8').trim()
        : config.IDENTITY_ENCRYPTION_KEY || undefined,
      production: host.production,
    };
  },
  // its own process makes the first administrator (the all-in-one does it itself, then seeds the demo practice)
  async standalone(runtime, config) {
    const made = await ensureInitialAdmin(runtime.db, { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD || undefined });
    if (made.generatedPassword) {
      process.stdout.write(
        `\nFirst administrator created: username "${config.ADMIN_USERNAME}", password "${made.generatedPassword}" (shown once).\n\n`,
      );
    }
  },
});
