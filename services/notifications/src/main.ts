import { startService } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { notificationsPlugin } from './plugin.js';

const NotificationsConfigSchema = Type.Object({
  /** Kafka consumer group of the event handlers; every replica shares it, so each event is handled once. */
  NOTIFICATIONS_CONSUMER_GROUP: Type.String({ default: '' }),
});

await startService({
  name: 'notifications',
  configSchema: NotificationsConfigSchema,
  async register(scope, runtime, config) {
    await scope.register(notificationsPlugin, { runtime, consumerGroup: config.NOTIFICATIONS_CONSUMER_GROUP });
  },
});
