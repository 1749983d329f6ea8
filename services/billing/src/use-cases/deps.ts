import type { Db, OutboxRelay } from '@countinghouse/kit';
import type { PaymentProvider } from '../adapters/payment-providers.js';

/** What every billing use case is handed: built once by the plugin. */
export interface BillingDeps {
  db: Db;
  relay: OutboxRelay;
  provider: PaymentProvider;
  publicUrl: string;
  /** The practice's details as /admin/settings holds them (the name on VAT invoices); absent: a default. */
  practice?: () => { name: string };
}
