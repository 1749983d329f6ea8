// Billing's routes and texts without a schema: what the public pages import stays free of TypeBox (the
// home page's 150 KB budget, tests/e2e/public-budget.test.ts). billing.ts and vat.ts re-export them.
/** HTTP routes of billing, under the gateway. */
export const BILLING_ROUTES = {
  /** Public: the catalogue. */
  packages: '/api/billing/packages',
  checkout: '/api/billing/checkout',
  /** The payment-success page: server-side, idempotent check of a checkout session. */
  verify: '/api/billing/verify',
  /** check-subscription (spec section 7). */
  subscription: '/api/billing/subscription',
  changePackage: '/api/billing/subscription/package',
  /** The built-in test checkout (only when Stripe is not configured). */
  testCheckout: (sessionId: string) => `/api/billing/test-checkout/${encodeURIComponent(sessionId)}`,
  testCheckoutPay: (sessionId: string) => `/api/billing/test-checkout/${encodeURIComponent(sessionId)}/pay`,
  /** Public at the gateway; Stripe signs it. */
  stripeWebhook: '/api/billing/webhooks/stripe',
  adminSubscriptions: '/api/billing/admin/subscriptions',
  adminSummary: '/api/billing/admin/summary',
  /** The practice's monthly revenue (the one definition, for the control panel and staff portal). */
  revenue: '/api/billing/revenue',
  /** Issue 33: the practice's VAT registration (GET public, PUT administrators). */
  vat: '/api/billing/vat',
  /** The signed-in client's VAT invoices, and one invoice's PDF (the client or the practice's staff). */
  invoices: '/api/billing/invoices',
  invoicePdf: (id: string) => `/api/billing/invoices/${encodeURIComponent(id)}/pdf`,
  adminInvoices: '/api/billing/admin/invoices',
} as const;

export const VAT_MESSAGES = {
  numberInvalid: 'A UK VAT number is GB and 9 digits, e.g. GB 123 4567 89.',
  addressRequired: 'A VAT invoice shows the practice’s address: please enter it.',
  rateInvalid: 'The VAT rate is a percentage between 0 and 100.',
  saved: 'VAT registration saved',
  plusVat: '+ VAT',
} as const;
