import type { Runtime } from '@countinghouse/kit';
import { runCompaniesHouseRefresh, runDaily } from '../use-cases/daily.js';
import type { DeadlinesDeps } from '../use-cases/deps.js';

/** The processors of the deadline jobs (proto JOBS); the job queue validates their payloads at both ends. */
export function registerProcessors(runtime: Runtime, deps: DeadlinesDeps) {
  runtime.jobs.process('deadlines.daily', async (payload) => runDaily(deps, payload.day), { concurrency: 1 });
  runtime.jobs.process('deadlines.companies_house_refresh', async (payload) => runCompaniesHouseRefresh(deps, payload.clientId), {
    concurrency: 1,
  });
}

/**
 * The daily schedules (Europe/London). No catch-up: one run after the product was down covers every
 * missed day, since each run opens the tasks of every deadline within the lead time and flags every
 * deadline already passed (both idempotent).
 */
export const DEADLINE_SCHEDULES = [
  // Companies House first, so the daily run opens tasks from fresh dates.
  { key: 'deadlines.companies_house_refresh', cron: '15 5 * * *', job: 'deadlines.companies_house_refresh', payload: {} },
  { key: 'deadlines.daily', cron: '0 6 * * *', job: 'deadlines.daily', payload: {} },
] as const;

export async function registerSchedules(runtime: Runtime): Promise<void> {
  for (const s of DEADLINE_SCHEDULES) await runtime.jobs.schedule({ ...s });
}
