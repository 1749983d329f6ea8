import { followPracticeSettings, startService } from '@countinghouse/kit';
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
  async register(scope, runtime, config) {
    // The practice's name on VAT invoices follows /admin/settings, as in all-in-one (issue 33).
    const practice = await followPracticeSettings({
      service: 'billing',
      bus: runtime.bus,
      logger: runtime.logger,
      defaults: { name: config.PRACTICE_NAME, phone: config.PRACTICE_PHONE, email: config.PRACTICE_EMAIL },
      settingsUrl: config.SETTINGS_URL,
    });
    scope.addHook('onClose', async () => practice.stop());
    await scope.register(billingPlugin, { runtime, stripe, practice: () => practice.live.practice() });
  },
});
