import type { Runtime } from '@countinghouse/kit';
import type { RecordsDeps } from '../use-cases/deps.js';
import { runRetention } from '../use-cases/retention.js';

export function registerProcessors(runtime: Runtime, deps: RecordsDeps) {
  runtime.jobs.process(
    'records.retention',
    async (payload) => void (await runRetention(deps, { day: payload.day, dryRun: payload.dryRun ?? false })),
    {
      concurrency: 1,
    },
  );
}

/** Daily, early morning London: a missed day is covered by the next run (expired stays expired). */
export function recordsSchedules(hour = 2) {
  return [{ key: 'records.retention', cron: `0 ${hour} * * *`, job: 'records.retention' as const, payload: {} }];
}

export async function registerSchedules(runtime: Runtime, hour?: number): Promise<void> {
  for (const s of recordsSchedules(hour)) await runtime.jobs.schedule({ ...s });
}
