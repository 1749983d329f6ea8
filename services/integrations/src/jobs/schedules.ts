import type { JobQueue } from '@countinghouse/kit';
import { KEEP_ALIVE_JOB, MTD_DAILY_JOB } from '../use-cases/deps.js';

/**
 * The integrations' recurring jobs. The daily keep-alive runs at 03:15 (Europe/London), out of office
 * hours and away from the top of the hour when providers are busiest.
 */
export const SCHEDULES = [
  { key: 'integrations.keep-alive.daily', cron: '15 3 * * *', job: KEEP_ALIVE_JOB, payload: {} },
  // MTD: pending authorisation requests read back from HMRC each morning (accepted, expired, cancelled).
  { key: 'integrations.mtd.daily', cron: '45 6 * * *', job: MTD_DAILY_JOB, payload: {} },
] as const;

/** Register the integrations' schedules with the job queue (one run per slot across replicas and restarts). */
export async function registerSchedules(jobs: JobQueue): Promise<void> {
  for (const s of SCHEDULES) await jobs.schedule({ ...s });
}
