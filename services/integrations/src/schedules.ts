import type { JobQueue } from '@countinghouse/kit';
import { KEEP_ALIVE_JOB } from './integrations-service.js';

/**
 * The integrations' recurring jobs. The daily keep-alive runs at 03:15 (Europe/London), out of office
 * hours and away from the top of the hour when providers are busiest.
 */
export const SCHEDULES = [{ key: 'integrations.keep-alive.daily', cron: '15 3 * * *', job: KEEP_ALIVE_JOB, payload: {} }] as const;

/**
 * Register the integrations' schedules with the job queue.
 *
 * The kit's JobQueue has no schedule API yet: the jobs helper's work (pg-boss behind JobQueue) proposes
 * `jobs.schedule({ key, cron, job, payload })`. Until that is merged this function registers nothing;
 * once it is, it becomes `for (const s of SCHEDULES) await jobs.schedule(s)`, and the keep-alive
 * processor registered in plugin.ts runs daily. Tests run the processor directly.
 */
export function registerSchedules(_jobs: JobQueue): void {
  // intentionally empty until JobQueue.schedule exists (see above)
}
