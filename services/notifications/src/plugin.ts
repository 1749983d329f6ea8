import { authContext, runMigrations, type App, type Runtime } from '@countinghouse/kit';
import { fileURLToPath } from 'node:url';
import { subscribeRaise } from './consumers/raise.js';
import { SCHEMA } from './db/schema.js';
import { notificationRoutes } from './routes/notifications.js';

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface NotificationsPluginOptions {
  runtime: Runtime;
  /** The Kafka consumer group (default notifications.raise); another one only for a second deployment on the same cluster. */
  consumerGroup?: string;
}

/**
 * The notifications service as one Fastify plugin: notifications raised from every service's events
 * (one consumer group, so replicas share the work), and the administrators' list, unread count,
 * read state and preferences.
 */
export async function notificationsPlugin(app: App, opts: NotificationsPluginOptions) {
  const { runtime } = opts;
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  await subscribeRaise(runtime, opts.consumerGroup || undefined);
  await app.register(authContext, { verifier: runtime.verifier });
  notificationRoutes(app, { db: runtime.db });
}

export { SCHEMA } from './db/schema.js';
export { RAISE_CONSUMER, RAISE_TYPES, raiseNotification } from './consumers/raise.js';
