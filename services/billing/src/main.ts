import { startService } from '@countinghouse/kit';
import { BillingConfigSchema } from './config.js';
import { billingPlugin, stripeOptionsFromEnv } from './plugin.js';

// Stripe is optional as a group: both keys or neither (then the built-in test checkout).
let stripe;
try {
  stripe = stripeOptionsFromEnv(process.env);
} catch (err) {
  process.stderr.write(`billing: ${(err as Error).message}\n`);
  process.exit(78);
}

await startService({
  name: 'billing',
  configSchema: BillingConfigSchema,
  async register(scope, runtime) {
    await scope.register(billingPlugin, { runtime, stripe });
  },
});
