import { Type } from '@sinclair/typebox';

/** The billing service's own settings (beside the kit's BaseConfigSchema); Stripe is both keys or neither. */
export const BillingConfigSchema = Type.Object({
  STRIPE_SECRET_KEY: Type.String({ default: '' }),
  STRIPE_WEBHOOK_SECRET: Type.String({ default: '' }),
  STRIPE_API_BASE: Type.String({ default: '' }),
  /** The practice's name on VAT invoices until the settings service answers; then /admin/settings (issue 33). */
  PRACTICE_NAME: Type.String({ default: 'Countinghouse Accountants' }),
  PRACTICE_PHONE: Type.String({ default: '020 7946 0321' }),
  PRACTICE_EMAIL: Type.String({ default: 'hello@countinghouse.co.uk' }),
  SETTINGS_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
});
