import { authContext, runMigrations, type App, type Runtime } from '@countinghouse/kit';
import { fileURLToPath } from 'node:url';
import { subscribeClientDirectory } from './consumers/client-directory.js';
import { subscribeRetention } from './consumers/retention.js';
import { subscribeSubjectAccess } from './consumers/subject-access.js';
import { ensureTemplates } from './db/queries.js';
import { SCHEMA } from './db/schema.js';
import { defaultTemplates } from './domain/default-templates.js';
import { registerProcessors, registerSchedules } from './jobs/processors.js';
import { engagementRoutes } from './routes/engagement.js';
import type { EngagementDeps, PracticeDetails } from './use-cases/deps.js';

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface EngagementPluginOptions {
  runtime: Runtime;
  /** The practice's details as /admin/settings holds them now (all-in-one: the gateway's live settings). */
  practice: () => PracticeDetails;
  /** The clock (tests move it). */
  now?: () => Date;
  /** Register the daily reminder schedule (default on; tests drive the job themselves). */
  schedules?: boolean;
}

/** The engagement service: letter templates, letters sent and signed online, their PDFs, reminders. */
export async function engagementPlugin(app: App, opts: EngagementPluginOptions) {
  const { runtime } = opts;
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  await ensureTemplates(runtime.db, defaultTemplates());
  // The outbox relay for this schema: enqueueEvent kicks it after each commit.
  runtime.relay(SCHEMA);
  const deps: EngagementDeps = {
    db: runtime.db,
    logger: runtime.logger,
    practice: opts.practice,
    now: opts.now ?? (() => new Date()),
    publicUrl: runtime.publicUrl,
  };
  await subscribeClientDirectory(runtime, deps);
  await subscribeRetention(runtime);
  await subscribeSubjectAccess(runtime);
  registerProcessors(runtime, deps);
  if (opts.schedules !== false) await registerSchedules(runtime);
  await app.register(authContext, { verifier: runtime.verifier });
  engagementRoutes(app, deps);
}

export { SCHEMA } from './db/schema.js';
export { ENGAGEMENT_SCHEDULES, registerSchedules } from './jobs/processors.js';
export { runReminders } from './use-cases/reminders.js';
export type { PracticeDetails } from './use-cases/deps.js';
