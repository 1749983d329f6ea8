import { startService } from '@countinghouse/kit';
import { BillingConfigSchema } from './config.js';
import { billingPlugin, stripeOptionsFromEnv, type StripeOptions } from './plugin.js';

let stripe: StripeOptions | null = null;

await startService({
  name: 'billing',
  configSchema: BillingConfigSchema,
  // Stripe is optional as a group: both keys or neither (then the built-in test checkout).
  checkConfig(config) {
    stripe = stripeOptionsFromEnv(config);
  },
  async register(scope, runtime) {
    await scope.register(billingPlugin, { runtime, stripe });
  },
});
