import type { Runtime } from '@countinghouse/kit';
import { runDaily } from '../use-cases/daily.js';
import type { AmlDeps } from '../use-cases/deps.js';

export function registerProcessors(runtime: Runtime, deps: AmlDeps) {
  runtime.jobs.process('aml.daily', async (payload) => runDaily(deps, payload.day), { concurrency: 1 });
}

/** Daily at 06:30 London, after the deadlines' run. No catch-up needed: one run covers every missed day. */
export const AML_SCHEDULES = [{ key: 'aml.daily', cron: '30 6 * * *', job: 'aml.daily', payload: {} }] as const;

export async function registerSchedules(runtime: Runtime): Promise<void> {
  for (const s of AML_SCHEDULES) await runtime.jobs.schedule({ ...s });
}
