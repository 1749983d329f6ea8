import type { Db, JobProcessor, JobQueue } from '@countinghouse/kit';
import type { Logger } from 'pino';
import { purgeExpired } from '../db/housekeeping-queries.js';

/** Daily at 03:30 London time: outside the hours the clocks change (01:00-02:00), and before the working day. */
export const HOUSEKEEPING_SCHEDULE = { key: 'identity.housekeeping', cron: '30 3 * * *' } as const;
/** Kept 30 days after a session ends: long enough to answer "who was signed in last week?". */
export const HOUSEKEEPING_RETENTION_DAYS = 30;

const DAY_MS = 24 * 3600 * 1000;

/** identity.purge_expired_sessions: the cut-off counts back from the slot the run is for (or now). */
export function purgeExpiredSessionsProcessor(db: Db, logger: Logger): JobProcessor<'identity.purge_expired_sessions'> {
  return async (payload, ctx) => {
    const from = ctx.scheduledFor ? new Date(ctx.scheduledFor) : new Date();
    const purged = await purgeExpired(db, new Date(from.getTime() - payload.olderThanDays * DAY_MS));
    logger.info({ ...purged, olderThanDays: payload.olderThanDays }, 'identity housekeeping done');
    return purged;
  };
}

export async function scheduleHousekeeping(jobs: JobQueue, db: Db, logger: Logger): Promise<void> {
  jobs.process('identity.purge_expired_sessions', purgeExpiredSessionsProcessor(db, logger), { concurrency: 1 });
  await jobs.schedule({
    ...HOUSEKEEPING_SCHEDULE,
    job: 'identity.purge_expired_sessions',
    payload: { olderThanDays: HOUSEKEEPING_RETENTION_DAYS },
  });
}
