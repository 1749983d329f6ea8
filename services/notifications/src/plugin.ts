import { authContext, runMigrations, type App, type Runtime } from '@countinghouse/kit';
import { fileURLToPath } from 'node:url';
import { RAISE_CONSUMER, RAISE_TOPICS, raiseHandler } from './consumers/raise.js';
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
  await runtime.bus.subscribe({
    group: opts.consumerGroup || RAISE_CONSUMER,
    topics: RAISE_TOPICS,
    handler: raiseHandler(runtime.db, runtime.logger),
  });
  await app.register(authContext, { verifier: runtime.verifier });
  notificationRoutes(app, { db: runtime.db });
}

export { SCHEMA } from './db/schema.js';
export { raiseHandler, RAISE_CONSUMER, RAISE_TOPICS } from './consumers/raise.js';
