import { startService } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { notificationsPlugin } from './plugin.js';

const NotificationsConfigSchema = Type.Object({
  /** Kafka consumer group of the event handlers; every replica shares it, so each event is handled once. */
  NOTIFICATIONS_CONSUMER_GROUP: Type.String({ default: '' }),
});

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
