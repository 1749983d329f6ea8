import type { Runtime } from '@countinghouse/kit';
import type { EngagementDeps } from '../use-cases/deps.js';
import { runReminders } from '../use-cases/reminders.js';

export function registerProcessors(runtime: Runtime, deps: EngagementDeps) {
  runtime.jobs.process('engagement.reminders', async (payload) => runReminders(deps, payload.day), { concurrency: 1 });
}

/** Daily at 09:00 London (a reasonable hour for an e-mail); a missed day is covered by the next run. */
export const ENGAGEMENT_SCHEDULES = [{ key: 'engagement.reminders', cron: '0 9 * * *', job: 'engagement.reminders', payload: {} }] as const;

export async function registerSchedules(runtime: Runtime): Promise<void> {
  for (const s of ENGAGEMENT_SCHEDULES) await runtime.jobs.schedule({ ...s });
}
