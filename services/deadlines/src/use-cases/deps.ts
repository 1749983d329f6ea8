import type { Db, OutboxRelay } from '@countinghouse/kit';
import type { Logger } from 'pino';
import type { CompaniesHouseClient } from '../companies-house/client.js';

export interface DeadlinesDeps {
  db: Db;
  relay: OutboxRelay;
  logger: Logger;
  /** Null when COMPANIES_HOUSE_API_KEY is not set: company fields are entered by hand. */
  companiesHouse: CompaniesHouseClient | null;
  /** Today in London; tests pin it. */
  today: () => string;
  publicUrl: string;
}

export type Tx = Db;
