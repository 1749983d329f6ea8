import { authContext, runMigrations, type App, type Runtime } from '@countinghouse/kit';
import { fileURLToPath } from 'node:url';
import { subscribeAmlConsumer } from './consumers/aml-review-tasks.js';
import { subscribeBillingConsumer } from './consumers/billing-subscriptions.js';
import { subscribeDeadlinesConsumer } from './consumers/deadline-tasks.js';
import { subscribeCrmConsumers } from './consumers/team-members.js';
import { subscribeSubjectAccess } from './consumers/subject-access.js';
import { subscribeTimelineConsumer } from './consumers/timeline.js';
import { SCHEMA } from './db/schema.js';
import { clientRoutes } from './routes/clients.js';
import { communicationRoutes } from './routes/communications.js';
import { ghlRoutes } from './routes/ghl.js';
import { leadRoutes } from './routes/leads.js';
import { overviewRoutes } from './routes/overview.js';
import { reportRoutes } from './routes/reports.js';
import { taskRoutes } from './routes/tasks.js';
import { upgradeRoutes } from './routes/upgrades.js';
import { workspaceRoutes } from './routes/workspace.js';
import type { CrmDeps } from './use-cases/deps.js';
import type { GhlOptions } from './use-cases/ghl.js';

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface CrmPluginOptions {
  runtime: Runtime;
  /** GoHighLevel (LeadConnector) import: GHL_API_KEY, GHL_LOCATION_ID, optional GHL_BASE_URL. Without both, the import says it is not configured. */
  ghl?: GhlOptions;
  /** Today in London (tests fix it): My work's buckets. */
  today?: () => string;
}

/** The crm service as one Fastify plugin: clients, leads, tasks, upgrades, communications, counts, the GoHighLevel import. */
export async function crmPlugin(app: App, opts: CrmPluginOptions) {
  const { runtime } = opts;
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  runtime.relay(SCHEMA);
  await app.register(authContext, { verifier: runtime.verifier });
  await subscribeCrmConsumers(runtime);
  await subscribeSubjectAccess(runtime);
  await subscribeBillingConsumer(runtime);
  await subscribeDeadlinesConsumer(runtime);
  await subscribeAmlConsumer(runtime);
  await subscribeTimelineConsumer(runtime);
  const deps: CrmDeps = { db: runtime.db, today: opts.today };
  clientRoutes(app, deps);
  leadRoutes(app, deps);
  workspaceRoutes(app, deps);
  taskRoutes(app, deps);
  upgradeRoutes(app, deps);
  communicationRoutes(app, deps);
  overviewRoutes(app, deps);
  reportRoutes(app, deps);
  ghlRoutes(app, { ...deps, ghl: opts.ghl ?? {} });
}

export { SCHEMA } from './db/schema.js';
export { demoClientFacts, linkedClientUserIds, seedCrmDemo, type DemoClientFacts, type DemoSeededClient } from './seed-demo.js';
export { upsertClientFromSubscription } from './db/client-upsert.js';
export { applyDeadlineTask, DEADLINE_TASKS_CONSUMER } from './consumers/deadline-tasks.js';
export { applyAmlReviewTask, AML_REVIEW_TASKS_CONSUMER } from './consumers/aml-review-tasks.js';
export type { GhlOptions } from './use-cases/ghl.js';
