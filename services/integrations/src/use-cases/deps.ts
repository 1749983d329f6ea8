import type { Db, JobQueue, OutboxRelay } from '@countinghouse/kit';
import type { IntegrationType } from '@countinghouse/proto';
import type { Logger } from 'pino';
import type { ProvidersSettings } from '../config.js';
import { takeProviderCall } from '../db/queries.js';
import { XERO_BUDGET, type CallBudget } from '../domain/rate-limit.js';
import type { TokenCipher } from '../domain/token-cipher.js';
import type { ProviderAdapter } from '../adapters/adapter.js';
import { ProviderError } from '../adapters/http.js';
import { quickbooksAdapter } from '../adapters/quickbooks.js';
import { xeroAdapter } from '../adapters/xero.js';

export const SYNC_JOB = 'integrations.sync' as const;
export const KEEP_ALIVE_JOB = 'integrations.keep_alive' as const;
export const MTD_DAILY_JOB = 'integrations.mtd_daily' as const;

/** What every integrations use case is handed: built once by the plugin (or a test). */
export interface IntegrationsDeps {
  db: Db;
  relay: OutboxRelay;
  jobs: JobQueue;
  logger: Logger;
  cipher: TokenCipher;
  providers: ProvidersSettings;
  adapters: Record<IntegrationType, ProviderAdapter>;
  /** Attempts and first backoff of a sync job (tests shorten the backoff). */
  syncAttempts: number;
  syncBackoffMs: number;
  /** The clock of rate budgets, retry times and token expiries (tests inject one). */
  now: () => Date;
}

export interface IntegrationsDepsOptions extends Omit<IntegrationsDeps, 'adapters' | 'now'> {
  /** Xero's calls per tenant (60 a minute, 5,000 a day unless told otherwise). */
  xeroBudget?: CallBudget;
  now?: () => Date;
}

/** The deps with the provider adapters: Xero's calls taken from the organisation's budget first. */
export function integrationsDeps(o: IntegrationsDepsOptions): IntegrationsDeps {
  const { xeroBudget, ...rest } = o;
  const now = o.now ?? (() => new Date());
  const budget = xeroBudget ?? XERO_BUDGET;
  return {
    ...rest,
    now,
    adapters: {
      xero: xeroAdapter(o.providers.xero, {
        now,
        beforeCall: async (tenantId) => {
          const at = await takeProviderCall(o.db, 'xero', tenantId, budget, now());
          if (at) throw new ProviderError('xero', 'rate_limited', 'call budget of the organisation', undefined, at);
        },
      }),
      quickbooks: quickbooksAdapter(o.providers.quickbooks, { now }),
    },
  };
}
