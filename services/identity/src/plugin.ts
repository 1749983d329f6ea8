import { authContext, runMigrations, type App, type Runtime, type TokenSigner } from '@countinghouse/kit';
import { fileURLToPath } from 'node:url';
import { SESSION } from '@countinghouse/proto';
import { SCHEMA } from './db/schema.js';
import { SessionStore } from './db/session-store.js';
import { adminAuthRoutes } from './routes/admin-auth.js';

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface IdentityPluginOptions {
  runtime: Runtime;
  signer: TokenSigner;
  cookieSecure: boolean;
}

/** The identity service as one Fastify plugin: admin accounts and sessions (later: people, roles, invitations). */
export async function identityPlugin(app: App, opts: IdentityPluginOptions) {
  const { runtime } = opts;
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  const relay = runtime.relay(SCHEMA);
  await app.register(authContext, { verifier: runtime.verifier });
  const adminSessions = new SessionStore(runtime.db, 'admin_sessions', 'admin_id', SESSION.adminSessionHours);
  adminAuthRoutes(app, { db: runtime.db, signer: opts.signer, relay, sessions: adminSessions, cookieSecure: opts.cookieSecure });
}

export { SCHEMA } from './db/schema.js';
export { ensureInitialAdmin, type InitialAdmin } from './bootstrap.js';
