import { authContext, runMigrations, type App, type Runtime } from '@countinghouse/kit';
import { fileURLToPath } from 'node:url';
import { subscribeDirectory } from './consumers/directory.js';
import { subscribeSubjectAccess } from './consumers/subject-access.js';
import { ensureTemplates } from './db/queries.js';
import { SCHEMA } from './db/schema.js';
import { defaultTemplates } from './domain/default-templates.js';
import { registerProcessors, registerSchedules } from './jobs/processors.js';
import { requestRoutes } from './routes/requests.js';
import type { RequestsDeps } from './use-cases/deps.js';

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface RequestsPluginOptions {
  runtime: Runtime;
  /** The practice's name and address as /admin/settings holds them now. */
  practice: () => { name: string; email: string };
  /** The clock (tests move it). */
  now?: () => Date;
  /** Register the daily schedule (default on; tests drive the job themselves). */
  schedules?: boolean;
}

/** The requests service: client requests with their chase, and the secure message thread. */
export async function requestsPlugin(app: App, opts: RequestsPluginOptions) {
  const { runtime } = opts;
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  await ensureTemplates(runtime.db, defaultTemplates());
  runtime.relay(SCHEMA);
  const deps: RequestsDeps = {
    db: runtime.db,
    logger: runtime.logger,
    practice: opts.practice,
    now: opts.now ?? (() => new Date()),
    publicUrl: runtime.publicUrl,
  };
  await subscribeDirectory(runtime);
  await subscribeSubjectAccess(runtime);
  registerProcessors(runtime, deps);
  if (opts.schedules !== false) await registerSchedules(runtime);
  await app.register(authContext, { verifier: runtime.verifier });
  requestRoutes(app, deps);
}

export { SCHEMA } from './db/schema.js';
export { REQUESTS_SCHEDULES, registerSchedules } from './jobs/processors.js';
export { runDaily } from './use-cases/daily.js';
export { scheduledDays, reminderDue } from './domain/schedule.js';
