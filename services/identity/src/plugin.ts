import { authContext, runMigrations, type App, type Runtime, type TokenSigner } from '@countinghouse/kit';
import { SESSION } from '@countinghouse/proto';
import { fileURLToPath } from 'node:url';
import { SCHEMA } from './db/schema.js';
import { SessionStore } from './db/session-store.js';
import { Mailer } from './mailer.js';
import { adminAuthRoutes } from './routes/admin-auth.js';
import { invitationRoutes } from './routes/invitations.js';
import { peopleAuthRoutes } from './routes/people-auth.js';
import { roleRoutes } from './routes/roles.js';
import { staffRoutes } from './routes/staff.js';
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
}

/** The identity service as one Fastify plugin: admin accounts, people, roles, sessions, invitations. */
export async function identityPlugin(app: App, opts: IdentityPluginOptions) {
  const { runtime } = opts;
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  const relay = runtime.relay(SCHEMA);
  const db = runtime.db;
  const given = opts.practiceName;
  const practiceName = typeof given === 'function' ? given : () => given ?? 'Countinghouse Accountants';
  const mailer = new Mailer(db, runtime.logger, opts.smtpUrl ?? '', opts.mailFrom || `${practiceName()} <no-reply@countinghouse.local>`);
  app.addHook('onClose', async () => mailer.close());
  await app.register(authContext, { verifier: runtime.verifier });

  const adminSessions = new SessionStore(db, 'admin_sessions', 'admin_id', SESSION.adminSessionHours, 'admin', relay);
  const userSessions = new SessionStore(db, 'user_sessions', 'user_id', SESSION.refreshTokenDays * 24, 'user', relay);
  adminAuthRoutes(app, { db, signer: opts.signer, relay, sessions: adminSessions, cookieSecure: opts.cookieSecure });
  peopleAuthRoutes(app, { db, signer: opts.signer, relay, sessions: userSessions, cookieSecure: opts.cookieSecure });
  invitationRoutes(app, { db, relay, mailer, publicUrl: runtime.publicUrl, practiceName });
  staffRoutes(app, { db, relay, sessions: userSessions });
  userRoutes(app, { db, mailer });
  roleRoutes(app, { db, relay, userSessions, adminSessions });
  await scheduleHousekeeping(runtime.jobs, db, runtime.logger);
}

export { SCHEMA } from './db/schema.js';
export { ensureInitialAdmin, type InitialAdmin } from './bootstrap.js';
export { DEMO_PASSWORD, DEMO_PEOPLE, seedIdentityDemo } from './demo.js';
