import type { Db } from '@countinghouse/kit';
import type { Logger } from 'pino';

export interface RecordsDeps {
  db: Db;
  logger: Logger;
  /** The clock (tests move it): the retention run's day is London's date of it. */
  now: () => Date;
}

export const SYSTEM_ACTOR = { kind: 'system' as const, id: null };
