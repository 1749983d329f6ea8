import type { Runtime } from '@countinghouse/kit';
import { runDaily } from '../use-cases/daily.js';
import type { RequestsDeps } from '../use-cases/deps.js';

export function registerProcessors(runtime: Runtime, deps: RequestsDeps) {
  runtime.jobs.process('requests.daily', async (payload) => runDaily(deps, payload.day), { concurrency: 1 });
}

/** Daily at 09:00 London (a reasonable hour for an e-mail); a missed day is covered by the next run. */
export const REQUESTS_SCHEDULES = [{ key: 'requests.daily', cron: '0 9 * * *', job: 'requests.daily', payload: {} }] as const;

export async function registerSchedules(runtime: Runtime): Promise<void> {
  for (const s of REQUESTS_SCHEDULES) await runtime.jobs.schedule({ ...s });
}
