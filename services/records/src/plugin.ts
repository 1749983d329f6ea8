import { authContext, runMigrations, type App, type Runtime } from '@countinghouse/kit';
import { fileURLToPath } from 'node:url';
import { subscribeAudit, subscribeRetention, subscribeSubjectAccess } from './consumers/records.js';
import { SCHEMA } from './db/schema.js';
import { registerProcessors, registerSchedules } from './jobs/processors.js';
import { recordsRoutes } from './routes/records.js';
import type { RecordsDeps } from './use-cases/deps.js';

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface RecordsPluginOptions {
  runtime: Runtime;
  /** The clock (tests move it). */
  now?: () => Date;
  /** Register the daily retention schedule (default on; tests drive the run themselves). */
  schedules?: boolean;
  /** Hour (London) of the daily retention run. */
  retentionHour?: number;
}

/** The records service: the audit trail of every service's changes and views, and the retention schedule. */
export async function recordsPlugin(app: App, opts: RecordsPluginOptions) {
  const { runtime } = opts;
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  runtime.relay(SCHEMA);
  const deps: RecordsDeps = { db: runtime.db, logger: runtime.logger, now: opts.now ?? (() => new Date()) };
  await subscribeAudit(runtime);
  await subscribeRetention(runtime);
  await subscribeSubjectAccess(runtime, deps.now);
  registerProcessors(runtime, deps);
  if (opts.schedules !== false) await registerSchedules(runtime, opts.retentionHour);
  await app.register(authContext, { verifier: runtime.verifier });
  recordsRoutes(app, deps);
}

export { SCHEMA } from './db/schema.js';
export { runRetention } from './use-cases/retention.js';
export { checkChain } from './use-cases/audit.js';
export { decideExpired, addYears } from './domain/retention.js';
