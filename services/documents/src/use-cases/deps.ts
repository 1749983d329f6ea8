import type { Db, OutboxRelay } from '@countinghouse/kit';
import type { DocumentStorage } from '../adapters/storage/storage.js';

/** What every documents use case is handed: built once by the plugin. */
export interface DocumentsDeps {
  db: Db;
  relay: OutboxRelay;
  storage: DocumentStorage;
  linkSecret: string | Buffer;
  /** Seconds since the epoch; tests move the clock. */
  nowSeconds: () => number;
}

/** Where a request came from, as the access log records it. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}
