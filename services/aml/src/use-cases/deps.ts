import type { Db } from '@countinghouse/kit';
import type { Logger } from 'pino';

export interface AmlDeps {
  db: Db;
  logger: Logger;
  /** Today in London; tests pin it. */
  today: () => string;
  /** How long adding evidence waits for the documents service's announcement of the upload. */
  evidenceWaitMs: number;
}
