import { authContext, runMigrations, type App, type Runtime } from '@countinghouse/kit';
import { fileURLToPath } from 'node:url';
import { CompaniesHouseClient } from './adapters/companies-house/client.js';
import { subscribeClientDirectory } from './consumers/client-directory.js';
import { subscribeJobRequests } from './consumers/job-requests.js';
import { subscribeJobStaff } from './consumers/job-staff.js';
import { subscribeIdentityVerifications } from './consumers/identity-verifications.js';
import { subscribeLeavers } from './consumers/leavers.js';
import { subscribeMtdObligations } from './consumers/mtd-obligations.js';
import { subscribeSignupCompany } from './consumers/signup-company.js';
import { subscribeSubjectAccess } from './consumers/subject-access.js';
import { SCHEMA } from './db/schema.js';
import { londonToday } from './domain/dates.js';
import { registerProcessors, registerSchedules } from './jobs/processors.js';
import { deadlineRoutes } from './routes/deadlines.js';
import { jobRoutes } from './routes/jobs.js';
import type { DeadlinesDeps } from './use-cases/deps.js';

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface CompaniesHouseOptions {
  /** COMPANIES_HOUSE_API_KEY; empty means not configured (the company fields are entered by hand). */
  apiKey?: string;
  /** COMPANIES_HOUSE_BASE_URL; default the public API host. */
  baseUrl?: string;
}

export interface DeadlinesPluginOptions {
  runtime: Runtime;
  companiesHouse?: CompaniesHouseOptions;
  /** Today in London (tests pin it). */
  today?: () => string;
  /** Register the daily schedules (default on; tests that drive the jobs themselves turn them off). */
  schedules?: boolean;
}

/** The deadlines service: tax profiles, the Companies House link, statutory deadlines, calendar feeds, daily jobs, client jobs (issue 29). */
export async function deadlinesPlugin(app: App, opts: DeadlinesPluginOptions) {
  const { runtime } = opts;
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  const relay = runtime.relay(SCHEMA);
  const ch = opts.companiesHouse?.apiKey
    ? new CompaniesHouseClient({ apiKey: opts.companiesHouse.apiKey, baseUrl: opts.companiesHouse.baseUrl, maxRetryWaitMs: 5_000 })
    : null;
  const deps: DeadlinesDeps = {
    db: runtime.db,
    relay,
    logger: runtime.logger,
    companiesHouse: ch,
    today: opts.today ?? (() => londonToday()),
    publicUrl: runtime.publicUrl,
    revocations: runtime.verifier.revocations,
  };
  // A sign-up's company number (issue 33): once linked, read from Companies House by the refresh job,
  // 2 s on (the consumer's transaction that set the number has committed by then; if not, the daily
  // refresh reads every linked company anyway).
  const signup = {
    today: deps.today,
    linked: async (clientId: string) => {
      if (!ch) return;
      await runtime.jobs.enqueue(
        'deadlines.companies_house_refresh',
        { clientId },
        { jobId: `signup-company-${clientId}`, delayMs: 2_000 },
      );
    },
  };
  await subscribeClientDirectory(runtime, signup);
  await subscribeSignupCompany(runtime, signup);
  await subscribeIdentityVerifications(runtime, deps.today);
  await subscribeMtdObligations(runtime, deps.today);
  await subscribeLeavers(runtime);
  await subscribeSubjectAccess(runtime);
  await subscribeJobStaff(runtime);
  await subscribeJobRequests(runtime);
  registerProcessors(runtime, deps);
  if (opts.schedules !== false) await registerSchedules(runtime);
  await app.register(authContext, { verifier: runtime.verifier });
  deadlineRoutes(app, deps);
  jobRoutes(app, deps);
}

export { SCHEMA } from './db/schema.js';
export { CompaniesHouseClient } from './adapters/companies-house/client.js';
export { computeDeadlines } from './domain/engine.js';
export { registerSchedules, DEADLINE_SCHEDULES } from './jobs/processors.js';
export { seedDeadlinesDemo, demoProfile, type DemoTaxClient } from './seed-demo.js';
