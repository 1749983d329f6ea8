import { authContext, ConfigError, runMigrations, type App, type Runtime } from '@countinghouse/kit';
import { fileURLToPath } from 'node:url';
import { SCHEMA } from './db/schema.js';
import { subscribeBillingConsumers } from './consumers/customers.js';
import { StripeProvider, TestProvider, type StripeOptions } from './adapters/payment-providers.js';
import { adminRoutes } from './routes/admin.js';
import { checkoutRoutes } from './routes/checkout.js';
import { reportRoutes } from './routes/reports.js';
import { vatRoutes } from './routes/vat.js';
import { webhookRoutes } from './routes/webhooks.js';
import type { BillingDeps } from './use-cases/deps.js';

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface BillingPluginOptions {
  runtime: Runtime;
  /**
   * Stripe (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, optional STRIPE_API_BASE). Without it the
   * product runs the built-in test checkout: no card is charged.
   */
  stripe?: StripeOptions | null;
  /** The practice's details as /admin/settings holds them now (the name on VAT invoices, issue 33). */
  practice?: () => { name: string };
}

/** The billing service as one Fastify plugin: catalogue, checkout, subscriptions, Stripe webhooks, revenue. */
export async function billingPlugin(app: App, opts: BillingPluginOptions) {
  const { runtime } = opts;
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  const relay = runtime.relay(SCHEMA);
  await app.register(authContext, { verifier: runtime.verifier });
  await subscribeBillingConsumers(runtime);
  const deps: BillingDeps = {
    db: runtime.db,
    relay,
    provider: opts.stripe ? new StripeProvider(opts.stripe) : new TestProvider(),
    publicUrl: runtime.publicUrl,
    practice: opts.practice,
  };
  checkoutRoutes(app, deps);
  adminRoutes(app, deps);
  reportRoutes(app, deps);
  vatRoutes(app, deps);
  await webhookRoutes(app, deps);
}

/** Stripe settings (the environment, or billing's parsed configuration), all or nothing (a half-configured Stripe fails at start). */
export function stripeOptionsFromEnv(env: {
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_BASE?: string;
}): StripeOptions | null {
  const secretKey = env.STRIPE_SECRET_KEY?.trim() ?? '';
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim() ?? '';
  const apiBase = env.STRIPE_API_BASE?.trim() || undefined;
  if (!secretKey && !webhookSecret) return null;
  if (!secretKey || !webhookSecret) {
    throw new ConfigError(
      `Invalid configuration:\n  - STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: set both or neither (${secretKey ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'} is missing)`,
    );
  }
  if (apiBase && !/^https?:\/\//.test(apiBase))
    throw new ConfigError('Invalid configuration:\n  - STRIPE_API_BASE: must be an http(s) address');
  return { secretKey, webhookSecret, apiBase };
}

export { SCHEMA } from './db/schema.js';
export { seedBillingDemo, type DemoBillingClient } from './seed-demo.js';
export type { StripeOptions } from './adapters/payment-providers.js';
