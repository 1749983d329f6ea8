import type { Db, JobProcessor, JobQueue } from '@countinghouse/kit';
import type { Logger } from 'pino';
import { purgeExpired } from '../db/queries.js';

/** Daily at 03:30 London time: outside the hours the clocks change (01:00-02:00), and before the working day. */
export const HOUSEKEEPING_SCHEDULE = { key: 'identity.housekeeping', cron: '30 3 * * *' } as const;
/** Kept 30 days after a session ends: long enough to answer "who was signed in last week?". */
export const HOUSEKEEPING_RETENTION_DAYS = 30;

const DAY_MS = 24 * 3600 * 1000;

export interface HousekeepingDeps {
  db: Db;
  logger: Logger;
  /**
   * Storage-only pruning with no retention question: revocations whose last token has expired, refresh
   * tokens retired longer ago than a session lives, throttle counters and known addresses past their
   * windows. (Nothing reads them past those points: the throttle resets a level by itself after
   * LEVEL_RESET_HOURS, revocations are read where expires_at > now().)
   */
  prune: () => Promise<void>;
}

/**
 * identity.purge_expired_sessions, identity's one housekeeping schedule: the cut-off counts back from
 * the slot the run is for (or now); then the storage-only pruning.
 */
export function purgeExpiredSessionsProcessor(deps: HousekeepingDeps): JobProcessor<'identity.purge_expired_sessions'> {
  return async (payload, ctx) => {
    const from = ctx.scheduledFor ? new Date(ctx.scheduledFor) : new Date();
    const purged = await purgeExpired(deps.db, new Date(from.getTime() - payload.olderThanDays * DAY_MS));
    await deps.prune();
    deps.logger.info({ ...purged, olderThanDays: payload.olderThanDays }, 'identity housekeeping done');
    return purged;
  };
}

export async function scheduleHousekeeping(jobs: JobQueue, deps: HousekeepingDeps): Promise<void> {
  jobs.process('identity.purge_expired_sessions', purgeExpiredSessionsProcessor(deps), { concurrency: 1 });
  await jobs.schedule({
    ...HOUSEKEEPING_SCHEDULE,
    job: 'identity.purge_expired_sessions',
    payload: { olderThanDays: HOUSEKEEPING_RETENTION_DAYS },
  });
}
