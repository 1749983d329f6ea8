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

/** The durable daily schedules (Europe/London) the jobs helper's JobQueue.schedule will run. */
export const DEADLINE_SCHEDULES = [
  // Companies House first, so the daily run opens tasks from fresh dates.
  { key: 'deadlines.companies_house_refresh', cron: '15 5 * * *', job: 'deadlines.companies_house_refresh', payload: {}, catchUp: true },
  { key: 'deadlines.daily', cron: '0 6 * * *', job: 'deadlines.daily', payload: {}, catchUp: true },
] as const;

interface SchedulingQueue {
  schedule(o: { key: string; cron: string; job: string; payload: unknown; catchUp?: boolean }): Promise<unknown>;
}

/**
 * Switched on by the integrator when the kit's JobQueue.schedule lands: until then the jobs are run by
 * enqueueing them (tests, an operator). Returns whether schedules were registered.
 */
export async function registerSchedules(runtime: Runtime): Promise<boolean> {
  const jobs = runtime.jobs as unknown as Partial<SchedulingQueue>;
  if (typeof jobs.schedule !== 'function') return false;
  for (const s of DEADLINE_SCHEDULES) await jobs.schedule({ ...s });
  return true;
}
