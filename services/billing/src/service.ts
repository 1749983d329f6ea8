import { defineService } from '@countinghouse/kit';
import { BillingConfigSchema } from './config.js';
import { billingPlugin, stripeOptionsFromEnv } from './plugin.js';

/** The billing service: packages, subscriptions (Stripe, or the built-in test checkout), VAT invoices. */
export const service = defineService({
  name: 'billing',
  configSchema: BillingConfigSchema,
  // Stripe is optional as a group: both keys or neither (then the built-in test checkout).
  checkConfig: (config) => void stripeOptionsFromEnv(config),
  plugin: billingPlugin,
  // the practice's name on VAT invoices follows /admin/settings (issue 33)
  options: (config, host) => ({ runtime: host.runtime, stripe: stripeOptionsFromEnv(config), practice: host.practice }),
});
