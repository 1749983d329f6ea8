import type { IntegrationSummary, IntegrationType, MtdLedgerBasis } from '@countinghouse/proto';
import type { ProviderSettings } from '../config.js';

/** The organisation a new grant reaches. */
export interface ConnectedOrganisation {
  /** Xero tenant id, QuickBooks realm id. */
  externalId: string;
  connectionId: string | null;
  companyName: string | null;
}

export interface SyncResult {
  companyName: string | null;
  summary: IntegrationSummary;
}

/** One profit-and-loss account's figure for a period (the MTD quarterly update's source, issue 31 item 6). */
export interface LedgerLine {
  /** The provider's own account id (Xero AccountID, QuickBooks account Id). */
  id: string;
  code: string | null;
  name: string;
  kind: 'income' | 'expense';
  amount: number;
}

/** Cash basis (payments only) or accruals: how the profit and loss report counts. */
export type LedgerBasis = MtdLedgerBasis;

/** What differs between providers after the OAuth grant: finding the organisation and reading its figures. */
export interface ProviderAdapter {
  readonly provider: IntegrationType;
  readonly settings: ProviderSettings;
  /** After the code exchange: which organisation (Xero connections; QuickBooks realmId + CompanyInfo). */
  organisation(accessToken: string, callback: { realmId?: string }): Promise<ConnectedOrganisation>;
  /** Organisation, contacts and open invoices and bills, summarised. Reports progress from 10 to 90. */
  summarise(accessToken: string, externalId: string, progress: (pct: number) => Promise<void>): Promise<SyncResult>;
  /** The profit and loss report from `from` to `to` (inclusive), account by account. */
  ledger(accessToken: string, externalId: string, period: { from: string; to: string; basis: LedgerBasis }): Promise<LedgerLine[]>;
}

/** What the service lends the adapters: the clock, and (Xero) the per-organisation call budget. */
export interface AdapterHooks {
  now: () => Date;
  /** Takes one call from the organisation's budget, or throws a rate_limited ProviderError with its retryAt. */
  beforeCall: (organisation: string) => Promise<void>;
}
