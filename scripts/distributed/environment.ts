// What each process is given: the variables shared by every service, a service's own, the gateway's.
import { KafkaClientConfigProperties } from '@countinghouse/kit';
import type { TObject } from '@sinclair/typebox';
import { GatewayConfigSchema } from '../../gateway/src/config.js';
import type { Env, Infra } from '../distributed.js';
import type { LaunchKeys } from './keys.js';

/** The settings every service gets. */
export function sharedEnv(
  env: Env,
  o: { host: string; publicUrl: string; infra: Infra; keys: LaunchKeys; kafkaNamespace: string | undefined },
): Env {
  return {
    PATH: env.PATH ?? process.env.PATH,
    HOME: env.HOME ?? process.env.HOME,
    NODE_ENV: env.NODE_ENV || 'production',
    HOST: o.host,
    LOG_LEVEL: env.LOG_LEVEL || 'info',
    DATABASE_URL: o.infra.databaseUrl,
    DB_POOL_SIZE: env.DB_POOL_SIZE || '5',
    KAFKA_BROKERS: o.infra.kafkaBrokers,
    KAFKA_NAMESPACE: o.kafkaNamespace ?? env.KAFKA_NAMESPACE ?? '',
    REDIS_URL: o.infra.redisUrl,
    BULLMQ_PREFIX: env.BULLMQ_PREFIX || 'countinghouse',
    JWT_PUBLIC_KEY_FILE: o.keys.publicKeyFile,
    // services answer only requests the gateway signed (health routes aside)
    GATEWAY_PUBLIC_KEY_FILE: o.keys.gatewayPublicKeyFile,
    DEMO_MODE: env.DEMO_MODE || 'true',
    PUBLIC_URL: o.publicUrl,
    ADMIN_USERNAME: env.ADMIN_USERNAME || 'admin',
    // Forwarded client addresses are believed from the gateway's address only (it runs on this host).
    TRUSTED_PROXIES: env.TRUSTED_PROXIES || '127.0.0.1,::1',
    // The Kafka client's TLS, SASL and topic settings, when the person set them (the gateway's pass through its schema).
    ...Object.fromEntries(Object.keys(KafkaClientConfigProperties).flatMap((k) => (env[k] ? [[k, env[k]]] : []))),
  };
}

/**
 * One service process's variables: those of its schema the person set, the shared ones, its database
 * role's, and those of its schema the launcher offers.
 */
export function serviceEnv(schema: TObject, env: Env, shared: Env, database: Env, offered: Env): Env {
  // A service's variables the person set (e.g. STRIPE_SECRET_KEY, SMTP_URL) are passed on; ours win.
  const own: Env = {};
  for (const key of Object.keys(schema.properties)) if (env[key] !== undefined) own[key] = env[key];
  const given: Env = {};
  for (const key of Object.keys(schema.properties)) if (offered[key] !== undefined) given[key] = offered[key];
  return { ...own, ...shared, ...database, ...given };
}

/** The gateway's variables; `serviceUrls` holds each service's *_URL (its processes' URLs, comma-separated). */
export function gatewayEnv(env: Env, shared: Env, keys: LaunchKeys, frontendDir: string, serviceUrls: Record<string, string>): Env {
  const gatewayEnv: Env = {};
  for (const key of Object.keys(GatewayConfigSchema.properties)) if (env[key] !== undefined) gatewayEnv[key] = env[key];
  Object.assign(gatewayEnv, {
    PATH: shared.PATH,
    HOME: shared.HOME,
    NODE_ENV: shared.NODE_ENV,
    HOST: env.HOST || '127.0.0.1',
    LOG_LEVEL: shared.LOG_LEVEL,
    KAFKA_BROKERS: shared.KAFKA_BROKERS,
    KAFKA_NAMESPACE: shared.KAFKA_NAMESPACE,
    // the sign-in limit: one count for every gateway, kept across a gateway's restart; keys of this product's own
    REDIS_URL: shared.REDIS_URL,
    REDIS_KEY_PREFIX: shared.BULLMQ_PREFIX,
    JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
    GATEWAY_SIGNING_KEY_FILE: keys.gatewayPrivateKeyFile,
    DEMO_MODE: shared.DEMO_MODE,
    FRONTEND_DIR: frontendDir,
    ...serviceUrls,
  });
  return gatewayEnv;
}
