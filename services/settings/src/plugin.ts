import { authContext, runMigrations, type App, type Runtime } from '@countinghouse/kit';
import { fileURLToPath } from 'node:url';
import { ensureSettings, type PracticeDefaults } from './db/queries.js';
import { SCHEMA } from './db/schema.js';
import { settingsRoutes } from './routes/settings.js';

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface SettingsPluginOptions {
  runtime: Runtime;
  /** The launcher's PRACTICE_NAME / PRACTICE_PHONE / PRACTICE_EMAIL: written once, when no settings exist yet. */
  defaults: PracticeDefaults;
}

/** The settings service as one Fastify plugin: the practice's name and contacts, the maintenance switch, their history. */
export async function settingsPlugin(app: App, opts: SettingsPluginOptions) {
  const { runtime } = opts;
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  await ensureSettings(runtime.db, opts.defaults);
  runtime.relay(SCHEMA);
  await app.register(authContext, { verifier: runtime.verifier });
  settingsRoutes(app, { db: runtime.db });
}

export { SCHEMA } from './db/schema.js';
export { ensureSettings, readSettingsRow, toPublic, type PracticeDefaults } from './db/queries.js';
