import { Type } from '@sinclair/typebox';

/** The notifications service's own settings (beside the kit's BaseConfigSchema), parsed once at start. */
export const NotificationsConfigSchema = Type.Object({
  /** Kafka consumer group of the event handlers; every replica shares it, so each event is handled once. */
  NOTIFICATIONS_CONSUMER_GROUP: Type.String({ default: '' }),
});
