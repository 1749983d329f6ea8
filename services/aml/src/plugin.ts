import { authContext, runMigrations, type App, type Runtime } from '@countinghouse/kit';
import { fileURLToPath } from 'node:url';
import { subscribeAmlEvents, subscribeAmlRetention } from './consumers/events.js';
import { subscribeAmlSubjectAccess } from './consumers/subject-access.js';
import { SCHEMA } from './db/schema.js';
import { londonToday } from './domain/dates.js';
import { registerProcessors, registerSchedules } from './jobs/processors.js';
import { amlRoutes } from './routes/aml.js';
import { identityVerificationRoutes } from './routes/identity-verification.js';
import type { AmlDeps } from './use-cases/deps.js';

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface AmlPluginOptions {
  runtime: Runtime;
  /** Today in London (tests pin it). */
  today?: () => string;
  /** Register the daily schedule (default on; tests that drive the job themselves turn it off). */
  schedules?: boolean;
  evidenceWaitMs?: number;
}

/** The AML service: due diligence files per client, versions, evidence, risk, MLRO sign-off, audit, retention. */
export async function amlPlugin(app: App, opts: AmlPluginOptions) {
  const { runtime } = opts;
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  // The outbox relay for this schema: enqueueEvent kicks it after each commit.
  runtime.relay(SCHEMA);
  const deps: AmlDeps = {
    db: runtime.db,
    logger: runtime.logger,
    today: opts.today ?? (() => londonToday()),
    evidenceWaitMs: opts.evidenceWaitMs ?? 5_000,
  };
  await subscribeAmlEvents(runtime);
  await subscribeAmlRetention(runtime, deps.today);
  await subscribeAmlSubjectAccess(runtime);
  registerProcessors(runtime, deps);
  if (opts.schedules !== false) await registerSchedules(runtime);
  await app.register(authContext, { verifier: runtime.verifier });
  amlRoutes(app, deps);
  identityVerificationRoutes(app, deps);
}

export { SCHEMA } from './db/schema.js';
export { assessRisk } from './domain/risk.js';
export { runDaily } from './use-cases/daily.js';
export { AML_SCHEDULES, registerSchedules } from './jobs/processors.js';
