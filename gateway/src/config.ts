import { KafkaClientConfigProperties } from '@countinghouse/kit';
import { SERVICES } from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';

/** One base URL, or a comma-separated list of a service's replicas. */
export const URL_LIST = '^https?://[^,\\s]+(\\s*,\\s*https?://[^,\\s]+)*$';
const OPTIONAL_URL_LIST = `^$|${URL_LIST}`;

/** The variable holding a service's base URL(s): CRM_URL for crm. */
export const serviceUrlVariable = (service: string) => `${service.toUpperCase()}_URL`;

/**
 * Each service's base URL, or a comma-separated list of its replicas (round robin, failover): one
 * variable per entry of proto's SERVICES. identity's is required (nobody signs in without it); a service
 * left out is not routed (its paths answer 404).
 */
export const GatewayServiceUrlsSchema = Type.Object(
  Object.fromEntries(
    SERVICES.map((s) => [
      serviceUrlVariable(s),
      s === 'identity' ? Type.String({ pattern: URL_LIST }) : Type.String({ pattern: OPTIONAL_URL_LIST, default: '' }),
    ]),
  ),
);

export const GatewayConfigSchema = Type.Object({
  HOST: Type.String({ default: '0.0.0.0' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  LOG_LEVEL: Type.String({ default: 'info' }),
  JWT_PUBLIC_KEY: Type.String({ default: '' }),
  JWT_PUBLIC_KEY_FILE: Type.String({ default: '' }),
  /** The Ed25519 private key (PEM) that signs every request forwarded to a service (services hold its public half). */
  GATEWAY_SIGNING_KEY: Type.String({ default: '' }),
  GATEWAY_SIGNING_KEY_FILE: Type.String({ default: '' }),
  KAFKA_BROKERS: Type.String({ minLength: 1 }),
  /** Prefix of topics and consumer groups, as the services' (tests share one broker). */
  KAFKA_NAMESPACE: Type.String({ pattern: '^[A-Za-z0-9._-]*$', default: '' }),
  /** The job status API (/api/jobs); empty means the notifications service, which serves it. */
  JOBS_URL: Type.String({ pattern: OPTIONAL_URL_LIST, default: '' }),
  DEMO_MODE: Type.Boolean({ default: false }),
  PRACTICE_NAME: Type.String({ default: 'Countinghouse Accountants' }),
  PRACTICE_PHONE: Type.String({ default: '020 7946 0321' }),
  PRACTICE_EMAIL: Type.String({ default: 'hello@countinghouse.co.uk' }),
  FRONTEND_DIR: Type.String({ default: '' }),
  SIGN_IN_RATE_LIMIT: Type.Integer({ minimum: 1, default: 10 }),
  /** When set, the sign-in limit is counted in this Redis, shared by every gateway replica. */
  REDIS_URL: Type.String({ pattern: '^(rediss?://.*)?$', default: '' }),
  /** The start of the gateway's keys in that Redis: products sharing one Redis each have their own counts. */
  REDIS_KEY_PREFIX: Type.String({ pattern: '^[A-Za-z0-9._-]+$', default: 'countinghouse' }),
  /** Strict-Transport-Security max-age in seconds (behind HTTPS only); 0: not sent. */
  HSTS_MAX_AGE: Type.Integer({ minimum: 0, maximum: 63_072_000, default: 0 }),
  TRUST_PROXY: Type.Boolean({ default: false }),
  /** KAFKA_SSL*, KAFKA_SASL_*, KAFKA_REPLICATION_FACTOR, KAFKA_TOPIC_PARTITIONS: as the services'. */
  ...KafkaClientConfigProperties,
});
