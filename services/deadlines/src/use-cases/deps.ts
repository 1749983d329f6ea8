import type { Db, OutboxRelay, RevocationList } from '@countinghouse/kit';
import type { Logger } from 'pino';
import type { CompaniesHouseClient } from '../adapters/companies-house/client.js';

export interface DeadlinesDeps {
  db: Db;
  relay: OutboxRelay;
  logger: Logger;
  /** Null when COMPANIES_HOUSE_API_KEY is not set: company fields are entered by hand. */
  companiesHouse: CompaniesHouseClient | null;
  /** Today in London; tests pin it. */
  today: () => string;
  publicUrl: string;
  /**
   * This process's revocation list: a feed made before its owner was cut off (deactivated, a role
   * revoked, a password reset) is refused at once, before the consumer has removed it.
   */
  revocations: RevocationList;
}

export type Tx = Db;
