import type { EventEnvelope } from '@countinghouse/proto';
import { Kafka, logLevel, type Consumer, type Producer } from 'kafkajs';
import type { Logger } from 'pino';

export interface BusMessage {
  key: string | null;
  envelope: EventEnvelope;
}

export type EventHandler = (envelope: EventEnvelope) => Promise<void>;

export interface SubscribeOptions {
  /** Consumer group: every instance of a service shares one, so each event is handled once per service. */
  group: string;
  topics: string[];
  handler: EventHandler;
  /**
   * Broadcast subscriptions (every instance sees every event, e.g. session revocations) use a group
   * unique to the instance and start from `sinceMs` ago.
   */
  broadcast?: { sinceMs: number };
}

/** The event bus: Kafka in distributed mode, in-process in all-in-one. Same contract. */
export interface EventBus {
  readonly kind: 'in-process' | 'kafka';
  publish(topic: string, messages: BusMessage[]): Promise<void>;
  subscribe(opts: SubscribeOptions): Promise<void>;
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * In-process bus. publish() resolves only after every subscriber handled the batch, and rejects if one
 * failed, so the outbox relay retries it (consumers are idempotent): the same at-least-once contract as Kafka.
 */
export class InProcessBus implements EventBus {
  readonly kind = 'in-process' as const;
  private subs = new Map<string, SubscribeOptions[]>();

  async publish(topic: string, messages: BusMessage[]): Promise<void> {
    const subs = this.subs.get(topic) ?? [];
    const failures: unknown[] = [];
    for (const sub of subs) {
      for (const m of messages) {
        try {
          await sub.handler(m.envelope);
        } catch (err) {
          failures.push(err);
          break; // keep order within a subscriber: stop its batch at the first failure
        }
      }
    }
    if (failures.length > 0) throw failures[0];
  }

  async subscribe(opts: SubscribeOptions): Promise<void> {
    for (const t of opts.topics) {
      const list = this.subs.get(t) ?? [];
      list.push(opts);
      this.subs.set(t, list);
    }
  }

  async isReady(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.subs.clear();
  }
}

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  instanceId: string;
  /**
   * Prefixed to every topic and consumer group (KAFKA_NAMESPACE), so several deployments can share one
   * broker without seeing each other's events (the tests start a product per file on one Kafka). Empty
   * in production.
   */
  namespace?: string;
}

export class KafkaBus implements EventBus {
  readonly kind = 'kafka' as const;
  private kafka: Kafka;
  private producer: Producer;
  private producerConnected: Promise<void> | null = null;
  private consumers: Consumer[] = [];
  private knownTopics = new Set<string>();
  private closed = false;

  constructor(private readonly opts: KafkaBusOptions) {
    const log = opts.logger.child({ component: 'kafka' });
    this.kafka = new Kafka({
      clientId: opts.clientId,
      brokers: opts.brokers,
      connectionTimeout: 3000,
      requestTimeout: 10000,
      retry: { initialRetryTime: 200, retries: 5, maxRetryTime: 5000 },
      logLevel: logLevel.WARN,
      logCreator:
        () =>
        ({ level, log: entry }) => {
          const { message, ...rest } = entry;
          if (level <= logLevel.ERROR) log.error(rest, message);
          else log.warn(rest, message);
        },
    });
    this.producer = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: true });
  }

  private connectProducer(): Promise<void> {
    if (!this.producerConnected) {
      this.producerConnected = this.producer.connect().catch((err) => {
        this.producerConnected = null;
        throw err;
      });
    }
    return this.producerConnected;
  }

  private ns(name: string): string {
    return `${this.opts.namespace ?? ''}${name}`;
  }

  async ensureTopics(names: string[]): Promise<void> {
    const topics = names.map((t) => this.ns(t));
    const missing = topics.filter((t) => !this.knownTopics.has(t));
    if (missing.length === 0) return;
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const existing = new Set(await admin.listTopics());
      const create = missing.filter((t) => !existing.has(t));
      if (create.length > 0) {
        await admin.createTopics({
          topics: create.map((topic) => ({ topic, numPartitions: 3, replicationFactor: 1 })),
          waitForLeaders: true,
        });
      }
      for (const t of missing) this.knownTopics.add(t);
    } finally {
      await admin.disconnect();
    }
  }

  async publish(topic: string, messages: BusMessage[]): Promise<void> {
    await this.connectProducer();
    await this.ensureTopics([topic]);
    await this.producer.send({
      topic: this.ns(topic),
      acks: -1,
      messages: messages.map((m) => ({
        key: m.key,
        value: JSON.stringify(m.envelope),
        headers: { 'event-type': m.envelope.type, 'event-id': m.envelope.id },
      })),
    });
  }

  async subscribe(opts: SubscribeOptions): Promise<void> {
    await this.ensureTopics(opts.topics);
    const groupId = this.ns(opts.broadcast ? `${opts.group}.${this.opts.instanceId}` : opts.group);
    const consumer = this.kafka.consumer({ groupId, sessionTimeout: 10000, heartbeatInterval: 1000, retry: { retries: 10 } });
    await consumer.connect();
    for (const topic of opts.topics) await consumer.subscribe({ topic: this.ns(topic), fromBeginning: !opts.broadcast });
    const log = this.opts.logger;
    await consumer.run({
      eachMessage: async ({ message, topic }) => {
        if (!message.value) return;
        let envelope: EventEnvelope;
        try {
          envelope = JSON.parse(message.value.toString('utf8')) as EventEnvelope;
        } catch (err) {
          // A poison message would block the partition forever; log and skip it.
          log.error({ err, topic, offset: message.offset }, 'unparseable event skipped');
          return;
        }
        await opts.handler(envelope);
      },
    });
    if (opts.broadcast) {
      // A broadcast consumer replays the recent past, so a restarted instance still knows recent revocations.
      const admin = this.kafka.admin();
      await admin.connect();
      try {
        for (const topic of opts.topics.map((t) => this.ns(t))) {
          const offsets = await admin.fetchTopicOffsetsByTimestamp(topic, Date.now() - opts.broadcast.sinceMs);
          for (const o of offsets) consumer.seek({ topic, partition: o.partition, offset: o.offset });
        }
      } finally {
        await admin.disconnect();
      }
    }
    this.consumers.push(consumer);
  }

  async isReady(): Promise<boolean> {
    if (this.closed) return false;
    try {
      await this.connectProducer();
      const admin = this.kafka.admin();
      await admin.connect();
      try {
        await admin.describeCluster();
      } finally {
        await admin.disconnect();
      }
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(this.consumers.map((c) => c.disconnect()));
    if (this.producerConnected) await this.producer.disconnect().catch(() => {});
  }
}
