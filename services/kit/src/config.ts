import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * The Kafka client's security and topic settings, read by every service and the gateway (kafkajs'
 * `ssl` and `sasl` options; see kafkaClientOptions). TLS files are PEM; SASL is all-or-nothing.
 */
export const KafkaClientConfigProperties = {
  /** Connect to the brokers over TLS. */
  KAFKA_SSL: Type.Boolean({ default: false }),
  /** A CA bundle to trust instead of the system's (a private CA); implies KAFKA_SSL. */
  KAFKA_SSL_CA_FILE: Type.String({ default: '' }),
  /** A client certificate and its key for mutual TLS (both or neither); imply KAFKA_SSL. */
  KAFKA_SSL_CERT_FILE: Type.String({ default: '' }),
  KAFKA_SSL_KEY_FILE: Type.String({ default: '' }),
  /** Empty: no SASL. Otherwise the username and password are required. */
  KAFKA_SASL_MECHANISM: Type.Union(
    ['', 'plain', 'scram-sha-256', 'scram-sha-512'].map((m) => Type.Literal(m)),
    { default: '' },
  ),
  KAFKA_SASL_USERNAME: Type.String({ default: '' }),
  KAFKA_SASL_PASSWORD: Type.String({ default: '' }),
  /** Replicas of each topic this process creates (3 on a production cluster of three brokers or more). */
  KAFKA_REPLICATION_FACTOR: Type.Integer({ minimum: 1, maximum: 16, default: 1 }),
  /** Partitions of each topic this process creates (the most consumers of one group that share work). */
  KAFKA_TOPIC_PARTITIONS: Type.Integer({ minimum: 1, maximum: 1000, default: 3 }),
};

/** Settings every service shares. */
export const BaseConfigSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], { default: 'development' }),
  HOST: Type.String({ default: '127.0.0.1' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  DATABASE_URL: Type.String({ pattern: '^postgres(ql)?://' }),
  /**
   * When set, migrations (and the grants that give DATABASE_URL's role the tables they create) run as
   * this owner at start, and DATABASE_URL may be the service's own limited role (docs/decisions.md).
   */
  DATABASE_MIGRATION_URL: Type.String({ pattern: '^(postgres(ql)?://.*)?$', default: '' }),
  DB_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  /** Comma-separated host:port list; empty means the in-process bus (all-in-one only). */
  KAFKA_BROKERS: Type.String({ default: '' }),
  /** Prefix of every Kafka topic and consumer group: deployments sharing a broker (tests) stay apart. */
  KAFKA_NAMESPACE: Type.String({ pattern: '^[A-Za-z0-9._-]*$', default: '' }),
  /** Empty means the in-process job runner (all-in-one only). */
  REDIS_URL: Type.String({ default: '' }),
  /** Prefix of the BullMQ keys in Redis: deployments sharing a Redis (tests) stay apart. */
  BULLMQ_PREFIX: Type.String({ pattern: '^[A-Za-z0-9._-]+$', default: 'countinghouse' }),
  JWT_PUBLIC_KEY: Type.String({ default: '' }),
  JWT_PUBLIC_KEY_FILE: Type.String({ default: '' }),
  /**
   * The gateway's Ed25519 public key (PEM): with it the service answers only requests the gateway signed
   * (health routes aside); required when NODE_ENV=production (docs/decisions.md, issue 32).
   */
  GATEWAY_PUBLIC_KEY: Type.String({ default: '' }),
  GATEWAY_PUBLIC_KEY_FILE: Type.String({ default: '' }),
  DEMO_MODE: Type.Boolean({ default: false }),
  PUBLIC_URL: Type.String({ default: 'http://localhost:3000' }),
  /**
   * The addresses (IPs or CIDRs, comma-separated) whose X-Forwarded-For is believed: the gateways'.
   * A request from anywhere else is known by its own address (sign-in throttles, sessions).
   */
  TRUSTED_PROXIES: Type.String({ pattern: '^[0-9A-Fa-f.:/,\\s]*$', default: '127.0.0.1,::1' }),
  ...KafkaClientConfigProperties,
});

export type BaseConfig = Static<typeof BaseConfigSchema>;

/**
 * Parse the environment once, at start, against a TypeBox schema; fail fast with every problem listed.
 * Numbers and booleans arrive as strings and are converted first.
 */
export function parseConfig<P extends TProperties>(
  schema: TObject<P>,
  env: Record<string, string | undefined> = process.env,
): Static<TObject<P>> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const withDefaults: unknown = Value.Default(schema, Value.Convert(schema, raw));
  if (Value.Check(schema, withDefaults)) return withDefaults;
  const errors = [...Value.Errors(schema, withDefaults)];
  {
    const lines = errors.map((e) => {
      const name = e.path.replace(/^\//, '') || '(root)';
      const got = env[name];
      return `  - ${name}: ${e.message}${got === undefined ? ' (not set)' : ` (got ${JSON.stringify(mask(name, got))})`}`;
    });
    throw new ConfigError(`Invalid configuration:\n${[...new Set(lines)].join('\n')}`);
  }
}

function mask(name: string, value: string) {
  return /KEY|SECRET|PASSWORD|TOKEN/i.test(name) ? '***' : value;
}

/** A PEM given inline or as a file path (the *_FILE variant wins when both are set). */
export function readPem(inline: string, file: string): string {
  if (file) return readFileSync(file, 'utf8');
  return inline.replace(/\\n/g, '\n');
}

/**
 * Run several parses of the configuration (the kit's base, a service's, a launcher's), every problem
 * they refuse said together in one ConfigError, so a person fixes them all at once.
 */
export function everyConfigProblem(...parses: Array<() => unknown>): void {
  const problems: string[] = [];
  for (const parse of parses) {
    try {
      parse();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(...err.message.replace(/^Invalid configuration:\n/, '').split('\n'));
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${[...new Set(problems)].join('\n')}`);
}

/** A file or TLS error's code (ENOENT, ERR_SSL_…), else its message. */
export function fileErrorOf(err: unknown): string {
  if (err instanceof Error) return 'code' in err && typeof err.code === 'string' ? err.code : err.message;
  return String(err);
}

const SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;

/** KAFKA_SASL_MECHANISM as kafkajs takes it (the schema admits only these; anything else is plain). */
function saslMechanismOf(m: string): (typeof SASL_MECHANISMS)[number] {
  return SASL_MECHANISMS.find((x) => x === m) ?? 'plain';
}

/** TRUSTED_PROXIES as Fastify's `trustProxy` takes it (proxy-addr's list); empty trusts no one. */
export function trustedProxies(value: string): string[] | false {
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length > 0 ? list : false;
}

export interface KafkaClientOptions {
  ssl?: true | { ca?: string; cert?: string; key?: string };
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
  replicationFactor: number;
  partitions: number;
}

/** The Kafka client settings (KafkaClientConfigProperties) as KafkaBus takes them; files are read now (fail fast). */
export function kafkaClientOptions(c: {
  KAFKA_SSL: boolean;
  KAFKA_SSL_CA_FILE: string;
  KAFKA_SSL_CERT_FILE: string;
  KAFKA_SSL_KEY_FILE: string;
  KAFKA_SASL_MECHANISM: string;
  KAFKA_SASL_USERNAME: string;
  KAFKA_SASL_PASSWORD: string;
  KAFKA_REPLICATION_FACTOR: number;
  KAFKA_TOPIC_PARTITIONS: number;
}): KafkaClientOptions {
  const problems: string[] = [];
  if (Boolean(c.KAFKA_SSL_CERT_FILE) !== Boolean(c.KAFKA_SSL_KEY_FILE))
    problems.push('  - KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE: set both (mutual TLS) or neither');
  const mechanism = c.KAFKA_SASL_MECHANISM;
  if (mechanism && (!c.KAFKA_SASL_USERNAME || !c.KAFKA_SASL_PASSWORD))
    problems.push(`  - KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD: required with KAFKA_SASL_MECHANISM=${mechanism}`);
  if (!mechanism && (c.KAFKA_SASL_USERNAME || c.KAFKA_SASL_PASSWORD))
    problems.push(
      '  - KAFKA_SASL_MECHANISM: required with KAFKA_SASL_USERNAME/KAFKA_SASL_PASSWORD (plain, scram-sha-256 or scram-sha-512)',
    );
  const read = (name: string, file: string) => {
    if (!file) return undefined;
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      problems.push(`  - ${name}: cannot read ${file} (${fileErrorOf(err)})`);
      return undefined;
    }
  };
  const files = {
    ca: read('KAFKA_SSL_CA_FILE', c.KAFKA_SSL_CA_FILE),
    cert: read('KAFKA_SSL_CERT_FILE', c.KAFKA_SSL_CERT_FILE),
    key: read('KAFKA_SSL_KEY_FILE', c.KAFKA_SSL_KEY_FILE),
  };
  // Node.js 24's OpenSSL 3.5 (security level 2) refuses what Node 20's accepted, e.g. an RSA key under
  // 2048 bits (ERR_SSL_EE_KEY_TOO_SMALL): say so at start, not at the first connection (decision 243).
  if (files.cert && files.key) {
    try {
      createSecureContext({ cert: files.cert, key: files.key });
    } catch (err) {
      problems.push(
        `  - KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE: refused by Node.js ${process.version}'s OpenSSL ${process.versions.openssl} (${fileErrorOf(err)}; RSA keys need 2048 bits or more)`,
      );
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  const tlsFiles = Object.fromEntries(Object.entries(files).filter(([, v]) => v !== undefined));
  const ssl = Object.keys(tlsFiles).length > 0 ? tlsFiles : c.KAFKA_SSL ? true : undefined;
  return {
    ...(ssl ? { ssl } : {}),
    ...(mechanism
      ? {
          sasl: {
            mechanism: saslMechanismOf(mechanism),
            username: c.KAFKA_SASL_USERNAME,
            password: c.KAFKA_SASL_PASSWORD,
          },
        }
      : {}),
    replicationFactor: c.KAFKA_REPLICATION_FACTOR,
    partitions: c.KAFKA_TOPIC_PARTITIONS,
  };
}
