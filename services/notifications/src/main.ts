import { startService } from '@countinghouse/kit';
import { NotificationsConfigSchema } from './config.js';
import { notificationsPlugin } from './plugin.js';

await startService({
  name: 'notifications',
  configSchema: NotificationsConfigSchema,
  async register(scope, runtime, config) {
    await scope.register(notificationsPlugin, { runtime, consumerGroup: config.NOTIFICATIONS_CONSUMER_GROUP });
  },
});
