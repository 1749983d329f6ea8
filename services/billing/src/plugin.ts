import { authContext, runMigrations, type App, type Runtime } from '@countinghouse/kit';
import { fileURLToPath } from 'node:url';
import { SCHEMA } from './db/schema.js';

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface BillingPluginOptions {
  runtime: Runtime;
}

/** The billing service as one Fastify plugin. */
export async function billingPlugin(app: App, opts: BillingPluginOptions) {
  const { runtime } = opts;
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  runtime.relay(SCHEMA);
  await app.register(authContext, { verifier: runtime.verifier });
}

export { SCHEMA } from './db/schema.js';
