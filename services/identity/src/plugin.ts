import { authContext, ConfigError, runMigrations, type App, type Runtime, type TokenSigner } from '@countinghouse/kit';
import { SESSION } from '@countinghouse/proto';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { SCHEMA } from './db/schema.js';
import { RevocationBook } from './db/revocations.js';
import { SessionStore } from './db/session-store.js';
import { pruneThrottle } from './db/throttle.js';
import { senderOf } from './domain/sender.js';
import { SecretCipher } from './domain/secret-cipher.js';
import { sealPlainTotpSecrets } from './use-cases/two-factor.js';
import { relyingParty } from './use-cases/passkeys.js';
import { subscribeEngagementMail } from './consumers/engagement-mail.js';
import { subscribeIdentityReminderMail } from './consumers/identity-reminder-mail.js';
import { subscribeRequestsMail } from './consumers/requests-mail.js';
import { subscribeReconnectMail } from './consumers/reconnect-mail.js';
import { subscribeOutsideSecrets } from './consumers/outside-secrets.js';
import { Mailer } from './adapters/mailer.js';
import { adminAuthRoutes } from './routes/admin-auth.js';
import { invitationRoutes } from './routes/invitations.js';
import { passwordRoutes } from './routes/passwords.js';
import { peopleAuthRoutes } from './routes/people-auth.js';
import { roleRoutes } from './routes/roles.js';
import { securityRoutes } from './routes/security.js';
import { staffRoutes } from './routes/staff.js';
import { twoFactorRoutes } from './routes/two-factor.js';
import { userRoutes } from './routes/users.js';
import { scheduleHousekeeping } from './jobs/housekeeping.js';

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface IdentityPluginOptions {
  runtime: Runtime;
  signer: TokenSigner;
  cookieSecure: boolean;
  /** nodemailer connection URL (smtp://user:pass@host:port); empty keeps mail in the outgoing-mail log. */
  smtpUrl?: string;
  mailFrom?: string;
  /** The practice's name in invitation e-mails; a getter follows changes made in /admin/settings (all-in-one). */
  practiceName?: string | (() => string);
  /** The practice's e-mail (Company Settings): the From address when MAIL_FROM is empty. A getter follows settings. */
  practiceEmail?: string | (() => string);
  /**
   * The AES-256-GCM key of the second-factor secrets at rest (32 bytes, or their base64; issue 32).
   * Without it a random key for this process only (refused in production): secrets sealed under it
   * cannot be opened after a restart. The launchers keep one in DATA_DIR/keys.
   */
  secretKey?: Buffer | string;
  /** NODE_ENV is production: a key must be given. */
  production?: boolean;
}

function secretKeyFrom(value: Buffer | string): Buffer {
  const key = typeof value === 'string' ? Buffer.from(value.trim(), 'base64') : value;
  if (key.length !== 32) throw new ConfigError('Invalid configuration:\n  - IDENTITY_ENCRYPTION_KEY: must be base64 of 32 bytes');
  return key;
}

/** The identity service as one Fastify plugin: admin accounts, people, roles, sessions, invitations. */
export async function identityPlugin(app: App, opts: IdentityPluginOptions) {
  const { runtime } = opts;
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  runtime.relay(SCHEMA);
  const db = runtime.db;
  const given = opts.practiceName;
  const practiceName = typeof given === 'function' ? given : () => given ?? 'Countinghouse Accountants';
  const givenEmail = opts.practiceEmail;
  const practiceEmail = typeof givenEmail === 'function' ? givenEmail : () => givenEmail ?? '';
  const from = () => senderOf({ mailFrom: opts.mailFrom ?? '', practiceName: practiceName(), practiceEmail: practiceEmail() });
  if (opts.smtpUrl && !from().address) {
    throw new ConfigError('Invalid configuration:\n  - MAIL_FROM: required with SMTP_URL when the practice has no e-mail address');
  }
  let secretKey: Buffer;
  if (opts.secretKey) secretKey = secretKeyFrom(opts.secretKey);
  else {
    if (opts.production) throw new ConfigError('Invalid configuration:\n  - IDENTITY_ENCRYPTION_KEY: required in production');
    runtime.logger.warn('identity: no encryption key configured; two-factor secrets will not survive a restart');
    secretKey = randomBytes(32);
  }
  const cipher = new SecretCipher(secretKey);
  const rp = () => relyingParty(runtime.publicUrl, practiceName());
  // Rows written before the secrets were encrypted (issue 32) are sealed now, once.
  const sealed = await sealPlainTotpSecrets({ db, cipher });
  if (sealed > 0) runtime.logger.info({ sealed }, 'identity: two-factor secrets encrypted at rest');
  const mailer = new Mailer(db, runtime.logger, opts.smtpUrl ?? '', from);
  app.addHook('onClose', async () => mailer.close());
  await app.register(authContext, { verifier: runtime.verifier });

  // Revocations are recorded in identity.revocations: this process's verifier (in all-in-one the
  // gateway's and every service's) loads them before the server listens, so a restart forgets none.
  const revocations = new RevocationBook(db, runtime.verifier.revocations);
  await revocations.prune();
  const loaded = await revocations.load();
  if (loaded > 0) runtime.logger.info({ revocations: loaded }, 'identity: revocations loaded');
  const adminSessions = new SessionStore(db, 'admin_sessions', 'admin_id', SESSION.adminSessionHours, 'admin', revocations);
  const userSessions = new SessionStore(db, 'user_sessions', 'user_id', SESSION.refreshTokenDays * 24, 'user', revocations);
  adminAuthRoutes(app, { db, cipher, signer: opts.signer, sessions: adminSessions, cookieSecure: opts.cookieSecure });
  peopleAuthRoutes(app, { db, cipher, rp, signer: opts.signer, sessions: userSessions, cookieSecure: opts.cookieSecure });
  twoFactorRoutes(app, { db, cipher, rp, issuer: practiceName });
  invitationRoutes(app, { db, mailer, publicUrl: runtime.publicUrl, practiceName });
  staffRoutes(app, { db, sessions: userSessions, revocations });
  userRoutes(app, { db, mailer });
  roleRoutes(app, { db, userSessions, adminSessions, revocations });
  securityRoutes(app, { db });
  passwordRoutes(app, {
    db,
    mailer,
    publicUrl: runtime.publicUrl,
    practiceName,
    userSessions,
    adminSessions,
    revocations,
    signer: opts.signer,
    cookieSecure: opts.cookieSecure,
  });
  // One schedule (daily, on the durable jobs queue): the retention purge, then expired revocations,
  // rotated-out refresh tokens and quiet throttle counters.
  await scheduleHousekeeping(runtime.jobs, {
    db,
    logger: runtime.logger,
    prune: async () => {
      await Promise.all([revocations.prune(), adminSessions.pruneRetired(), userSessions.pruneRetired(), pruneThrottle(db)]);
    },
  });
  // Reminders of unsigned engagement letters go out through this mailer.
  await subscribeEngagementMail(runtime, mailer);
  await subscribeIdentityReminderMail(runtime, mailer);
  // The chase of client requests and the notices of secure messages, likewise.
  await subscribeRequestsMail(runtime, mailer);
  await subscribeOutsideSecrets(runtime);
  // A client whose Xero or QuickBooks connection was refused is asked by e-mail to connect again.
  await subscribeReconnectMail(runtime, { mailer, publicUrl: runtime.publicUrl, practiceName });
}

export { SCHEMA } from './db/schema.js';
export { RevocationBook, liveRevocations, type Revoker } from './db/revocations.js';
export { SessionStore } from './db/session-store.js';
export { ensureInitialAdmin, type InitialAdmin } from './use-cases/bootstrap.js';
export {
  assertDemoSeedAllowed,
  DEMO_PEOPLE,
  DemoSeedRefused,
  demoSignInPage,
  demoSignIns,
  formatDemoSignIns,
  seedIdentityDemo,
  type DemoSignIn,
} from './seed-demo.js';
