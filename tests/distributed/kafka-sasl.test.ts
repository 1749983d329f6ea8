import { ConfigError, KafkaBus, kafkaClientOptions, parseConfig, BaseConfigSchema } from '@countinghouse/kit';
import type { EventEnvelope } from '@countinghouse/proto';
import { Kafka } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwnKafka, type OwnKafka } from '../kafka-broker.js';
import { freePort } from '../processes.js';

// The Kafka client's SASL settings (KAFKA_SASL_*) against a real broker of this file's own, started by
// infra/kafka/kafka.sh with a SASL_PLAINTEXT listener (PLAIN): the right password publishes and
// consumes, a wrong one is refused. (TLS is passed to kafkajs the same way; no TLS broker here.)

let kafka: OwnKafka | undefined;
let saslBrokers = '';
const USER = 'crm';
const PASSWORD = `pw-${randomUUID()}`;
const logger = pino({ level: 'silent' });

/** The bus a service builds from its environment (parseConfig + kafkaClientOptions, as startService does). */
function busFrom(vars: Record<string, string>, namespace: string) {
  const config = parseConfig(BaseConfigSchema, { DATABASE_URL: 'postgres://unused', KAFKA_BROKERS: saslBrokers, ...vars });
  return new KafkaBus({
    brokers: [saslBrokers],
    clientId: 'sasl-test',
    logger,
    instanceId: randomUUID(),
    namespace,
    ...kafkaClientOptions(config),
  });
}

beforeAll(async () => {
  const saslPort = String(await freePort());
  kafka = await startOwnKafka('ch-kafka-sasl-', {
    KAFKA_SASL_PORT: saslPort,
    KAFKA_SASL_USERS: `${USER}:${PASSWORD},other:another-password`,
  });
  saslBrokers = /KAFKA_SASL_BROKERS=(\S+)/.exec(kafka.output)?.[1] ?? '';
  expect(saslBrokers).toBe(`127.0.0.1:${saslPort}`);
});

afterAll(() => {
  kafka?.remove();
});

describe('Kafka over SASL (PLAIN)', () => {
  it('publishes and consumes with the right password', async () => {
    const ns = `sasl-${randomUUID().slice(0, 8)}.`;
    const sasl = { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: USER, KAFKA_SASL_PASSWORD: PASSWORD };
    const bus = busFrom({ ...sasl, KAFKA_TOPIC_PARTITIONS: '2' }, ns);
    try {
      const seen: EventEnvelope[] = [];
      await bus.subscribe({ group: 'sasl-test', topics: ['sasl'], handler: async (e) => void seen.push(e) });
      const envelope = {
        id: randomUUID(),
        type: 'crm.test',
        occurredAt: new Date().toISOString(),
        data: { n: 1 },
      } as unknown as EventEnvelope;
      await bus.publish('sasl', [{ key: 'k', envelope }]);
      const until = Date.now() + 60_000;
      while (seen.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      expect(seen.map((e) => e.id)).toEqual([envelope.id]);
      expect(await bus.isReady()).toBe(true);
      // the topic was created with KAFKA_TOPIC_PARTITIONS partitions and KAFKA_REPLICATION_FACTOR (1) replicas
      const admin = new Kafka({ brokers: [saslBrokers], sasl: { mechanism: 'plain', username: USER, password: PASSWORD } }).admin();
      await admin.connect();
      try {
        const { topics } = await admin.fetchTopicMetadata({ topics: [`${ns}sasl`] });
        expect(topics[0]!.partitions).toHaveLength(2);
        expect(topics[0]!.partitions.every((p) => p.replicas.length === 1)).toBe(true);
      } finally {
        await admin.disconnect();
      }
    } finally {
      await bus.close();
    }
  });

  it('is refused with a wrong password, and without SASL at all', async () => {
    const attempts: Array<Record<string, string>> = [
      { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: USER, KAFKA_SASL_PASSWORD: 'wrong' },
      { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'nobody', KAFKA_SASL_PASSWORD: PASSWORD },
      {},
    ];
    for (const vars of attempts) {
      const bus = busFrom(vars, `sasl-refused-${randomUUID().slice(0, 8)}.`);
      try {
        const err = await bus.publish('sasl', []).then(
          () => null,
          (e: Error) => e,
        );
        expect(err, JSON.stringify(vars)).not.toBeNull();
        if (vars.KAFKA_SASL_MECHANISM) expect(`${err!.name}: ${err!.message}`).toMatch(/SASL|[Aa]uthentication/);
      } finally {
        await bus.close().catch(() => {});
      }
    }
  });

  it('a half-given SASL or TLS group fails at start, naming what is missing', () => {
    const parse = (vars: Record<string, string>) => () =>
      kafkaClientOptions(parseConfig(BaseConfigSchema, { DATABASE_URL: 'postgres://unused', ...vars }));
    expect(parse({ KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'crm' })).toThrow(ConfigError);
    expect(parse({ KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'crm' })).toThrow(/KAFKA_SASL_PASSWORD/);
    expect(parse({ KAFKA_SASL_USERNAME: 'crm', KAFKA_SASL_PASSWORD: 'x' })).toThrow(/KAFKA_SASL_MECHANISM/);
    expect(parse({ KAFKA_SSL_CERT_FILE: '/nonexistent.pem' })).toThrow(/KAFKA_SSL_KEY_FILE/);
    expect(parse({ KAFKA_SSL_CA_FILE: '/nonexistent-ca.pem' })).toThrow(/KAFKA_SSL_CA_FILE: cannot read/);
    expect(() => parseConfig(BaseConfigSchema, { DATABASE_URL: 'postgres://x', KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(
      /KAFKA_SASL_MECHANISM/,
    );
    expect(parse({ KAFKA_SSL: 'true', KAFKA_REPLICATION_FACTOR: '3', KAFKA_TOPIC_PARTITIONS: '6' })).not.toThrow();
    expect(parse({ KAFKA_SSL: 'true', KAFKA_REPLICATION_FACTOR: '3', KAFKA_TOPIC_PARTITIONS: '6' })()).toEqual({
      ssl: true,
      replicationFactor: 3,
      partitions: 6,
    });
    expect(parse({ KAFKA_SASL_MECHANISM: 'scram-sha-256', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' })()).toEqual({
      sasl: { mechanism: 'scram-sha-256', username: 'u', password: 'p' },
      replicationFactor: 1,
      partitions: 3,
    });
  });
});
