import type { Db } from '@countinghouse/kit';
import type { Logger } from 'pino';

export interface PracticeDetails {
  name: string;
  phone: string;
  email: string;
}

export interface EngagementDeps {
  db: Db;
  logger: Logger;
  /** The practice's details as /admin/settings holds them now. */
  practice: () => PracticeDetails;
  /** The clock (tests move it). */
  now: () => Date;
  publicUrl: string;
}

/** Where a request came from, for the audit and the signature certificate. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}
