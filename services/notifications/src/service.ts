import { defineService } from '@countinghouse/kit';
import { NotificationsConfigSchema } from './config.js';
import { notificationsPlugin } from './plugin.js';

/** The notifications service: the bell, and (in its own process) the job status API for every queue. */
export const service = defineService({
  name: 'notifications',
  configSchema: NotificationsConfigSchema,
  plugin: notificationsPlugin,
  options: (config, host) => ({ runtime: host.runtime, consumerGroup: config.NOTIFICATIONS_CONSUMER_GROUP }),
  // The job status page's API: every queue is in the one Redis, every schedule in PostgreSQL, so this
  // service answers for all of them (the gateway routes /api/jobs here unless JOBS_URL says otherwise).
  jobsAdmin: true,
});
