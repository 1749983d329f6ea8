import { FollowsPracticeConfigProperties } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';

/** The billing service's own settings (beside the kit's BaseConfigSchema); Stripe is both keys or neither. */
export const BillingConfigSchema = Type.Object({
  STRIPE_SECRET_KEY: Type.String({ default: '' }),
  STRIPE_WEBHOOK_SECRET: Type.String({ default: '' }),
  STRIPE_API_BASE: Type.String({ default: '' }),
  /** The practice's name on VAT invoices until the settings service answers; then /admin/settings (issue 33). */
  ...FollowsPracticeConfigProperties,
});
