import { startService } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
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
  configSchema: Type.Object({
    STRIPE_SECRET_KEY: Type.String({ default: '' }),
    STRIPE_WEBHOOK_SECRET: Type.String({ default: '' }),
    STRIPE_API_BASE: Type.String({ default: '' }),
  }),
  async register(scope, runtime) {
    await scope.register(billingPlugin, { runtime, stripe });
  },
});
