import type { Db } from '@countinghouse/kit';
import type { Logger } from 'pino';

export interface RequestsDeps {
  db: Db;
  logger: Logger;
  /** The practice as /admin/settings holds it now (signs the e-mails; its address gets the clients' message notices). */
  practice: () => { name: string; email: string };
  /** The clock (tests move it). */
  now: () => Date;
  publicUrl: string;
}

export const SYSTEM_ACTOR = { kind: 'system' as const, id: null };
