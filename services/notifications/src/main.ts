import { startService } from '@countinghouse/kit';
import { NotificationsConfigSchema } from './config.js';
import { notificationsPlugin } from './plugin.js';

await startService({
  name: 'notifications',
  // The job status page's API: every queue is in the one Redis, every schedule in PostgreSQL, so this
  // service answers for all of them (the gateway routes /api/jobs here unless JOBS_URL says otherwise).
  jobsAdmin: true,
  configSchema: NotificationsConfigSchema,
  async register(scope, runtime, config) {
    await scope.register(notificationsPlugin, { runtime, consumerGroup: config.NOTIFICATIONS_CONSUMER_GROUP });
  },
});
