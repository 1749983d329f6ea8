import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { readFileSync } from 'node:fs';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

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
  DEMO_MODE: Type.Boolean({ default: false }),
  PUBLIC_URL: Type.String({ default: 'http://localhost:3000' }),
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
  const withDefaults = Value.Default(schema, Value.Convert(schema, raw)) as Record<string, unknown>;
  const errors = [...Value.Errors(schema, withDefaults)];
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const name = e.path.replace(/^\//, '') || '(root)';
      const got = env[name];
      return `  - ${name}: ${e.message}${got === undefined ? ' (not set)' : ` (got ${JSON.stringify(mask(name, got))})`}`;
    });
    throw new ConfigError(`Invalid configuration:\n${[...new Set(lines)].join('\n')}`);
  }
  return withDefaults as Static<TObject<P>>;
}

function mask(name: string, value: string) {
  return /KEY|SECRET|PASSWORD|TOKEN/i.test(name) ? '***' : value;
}

/** A PEM given inline or as a file path (the *_FILE variant wins when both are set). */
export function readPem(inline: string, file: string): string {
  if (file) return readFileSync(file, 'utf8');
  return inline.replace(/\\n/g, '\n');
}

/** Parse two schemas' variables (the kit's base and a service's own) at once, every problem reported together. */
export function parseConfigs<A extends TProperties, B extends TProperties>(
  a: TObject<A>,
  b: TObject<B>,
  env: Record<string, string | undefined> = process.env,
): Static<TObject<A>> & Static<TObject<B>> {
  const problems: string[] = [];
  const parse = <Q extends TProperties>(s: TObject<Q>): Static<TObject<Q>> | null => {
    try {
      return parseConfig(s, env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(err.message.replace(/^Invalid configuration:\n/, ''));
      return null;
    }
  };
  const first = parse(a);
  const second = parse(b);
  if (!first || !second) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return { ...first, ...second };
}
