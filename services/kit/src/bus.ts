import type { EventEnvelope } from '@countinghouse/proto';
import './kafkajs-request-queue.js'; // before any Kafka client: no 1 ms loop over an empty request queue
import { Kafka, logLevel, type Admin, type Consumer, type KafkaConfig, type Producer, type SASLOptions } from 'kafkajs';
import type { Logger } from 'pino';
import { errorMessage } from './errors.js';

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
  broadcast?: {
    sinceMs: number;
    /**
     * subscribe() resolves only once everything published before it was called (back to sinceMs) has
     * been handled, so e.g. a restarted verifier knows every revocation before it serves a request.
     * Throws when that takes longer than REPLAY_TIMEOUT_MS (the process should not start half-informed).
     */
    awaitReplay?: boolean;
  };
}

/** How long ensuring a topic exists (and has a leader) may take before it fails. */
export const ENSURE_TOPICS_TIMEOUT_MS = 30_000;

/** How long a subscribe() with awaitReplay may take to catch up before it fails. */
export const REPLAY_TIMEOUT_MS = 60_000;

/** The event bus: Kafka in distributed mode, in-process in all-in-one. Same contract. */
export interface EventBus {
  readonly kind: 'in-process' | 'kafka';
  publish(topic: string, messages: BusMessage[]): Promise<void>;
  /**
   * Starts a subscription. On Kafka it resolves once the consumer is connected and subscribed; its group
   * join goes on in the background (except with awaitReplay, which waits for the join and the replay), so
   * a service's consumer groups join side by side: joined() waits for them.
   */
  subscribe(opts: SubscribeOptions): Promise<void>;
  /** Every subscription so far has joined its consumer group (a process listens only after this). */
  joined(): Promise<void>;
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

  async joined(): Promise<void> {}

  async isReady(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.subs.clear();
  }
}

/**
 * The largest event the Kafka bus carries: 16 MiB. A file sent against a client request or on a message
 * thread travels base64 in its event (at most 5 MB, about 6.7 MB encoded; decision 281), above Kafka's
 * default 1 MB. Topics this bus creates carry `max.message.bytes` of this size (so an external broker's
 * default does not apply to them), the test broker and compose raise `message.max.bytes` to match, and
 * consumers fetch up to this much per partition.
 */
export const KAFKA_EVENT_MAX_BYTES = 16 * 1024 * 1024;

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
  /** TLS (true: the system's CAs) and SASL, from KAFKA_SSL* and KAFKA_SASL_* (kafkaClientOptions). */
  ssl?: KafkaConfig['ssl'];
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
  /** Replicas and partitions of the topics this bus creates (KAFKA_REPLICATION_FACTOR, KAFKA_TOPIC_PARTITIONS). */
  replicationFactor?: number;
  partitions?: number;
}

/**
 * The SASL settings as kafkajs types them (a union keyed by mechanism): the same three fields, built for
 * the mechanism named.
 */
export function kafkaSasl(s: NonNullable<KafkaBusOptions['sasl']>): SASLOptions {
  const { username, password } = s;
  if (s.mechanism === 'plain') return { mechanism: 'plain', username, password };
  if (s.mechanism === 'scram-sha-256') return { mechanism: 'scram-sha-256', username, password };
  return { mechanism: 'scram-sha-512', username, password };
}

export class KafkaBus implements EventBus {
  readonly kind = 'kafka' as const;
  private kafka: Kafka;
  private producer: Producer;
  private producerConnected: Promise<void> | null = null;
  private consumers: Consumer[] = [];
  /** The joins of the subscriptions not waited for in subscribe() (joined()). */
  private joins: Array<Promise<void>> = [];
  private knownTopics = new Set<string>();
  private closed = false;
  private readinessAdmin: Promise<Admin> | null = null;

  constructor(private readonly opts: KafkaBusOptions) {
    const log = opts.logger.child({ component: 'kafka' });
    this.kafka = new Kafka({
      clientId: opts.clientId,
      brokers: opts.brokers,
      ...(opts.ssl ? { ssl: opts.ssl } : {}),
      ...(opts.sasl ? { sasl: kafkaSasl(opts.sasl) } : {}),
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
    // A broker that has just started (or several processes creating the same topics at once) answers
    // UNKNOWN_TOPIC_OR_PARTITION or LEADER_NOT_AVAILABLE for a moment after a topic is created, which
    // kafkajs' own wait for leaders gives up on: ask again until every partition has a leader.
    const until = Date.now() + ENSURE_TOPICS_TIMEOUT_MS;
    for (let attempt = 1; ; attempt++) {
      const admin = this.kafka.admin();
      // (a broker that cannot be reached at all fails at once: the caller, e.g. the outbox relay, backs off itself)
      await admin.connect();
      try {
        const existing = new Set(await admin.listTopics());
        const create = missing.filter((t) => !existing.has(t));
        if (create.length > 0) {
          await admin.createTopics({
            topics: create.map((topic) => ({
              topic,
              numPartitions: this.opts.partitions ?? 3,
              replicationFactor: this.opts.replicationFactor ?? 1,
              configEntries: [{ name: 'max.message.bytes', value: String(KAFKA_EVENT_MAX_BYTES) }],
            })),
            waitForLeaders: false,
          });
        }
        const { topics: meta } = await admin.fetchTopicMetadata({ topics: missing });
        const leaderless = meta.filter((t) => t.partitions.length === 0 || t.partitions.some((p) => p.leader < 0));
        if (leaderless.length > 0) throw new Error(`no leader yet for ${leaderless.map((t) => t.name).join(', ')}`);
        for (const t of missing) this.knownTopics.add(t);
        return;
      } catch (err) {
        if (this.closed || Date.now() > until) throw err;
        this.opts.logger.warn({ err: errorMessage(err), attempt, topics: missing }, 'kafka: topics not ready yet; asking again');
        await new Promise((r) => setTimeout(r, Math.min(2000, 250 * attempt)));
      } finally {
        await admin.disconnect().catch(() => {});
      }
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
    const consumer = this.kafka.consumer({
      groupId,
      sessionTimeout: 10000,
      heartbeatInterval: 1000,
      retry: { retries: 10 },
      maxBytesPerPartition: KAFKA_EVENT_MAX_BYTES,
      maxBytes: 2 * KAFKA_EVENT_MAX_BYTES,
    });
    await consumer.connect();
    for (const topic of opts.topics) await consumer.subscribe({ topic: this.ns(topic), fromBeginning: !opts.broadcast });
    // A broadcast consumer replays the recent past (from sinceMs ago up to the end as of now).
    const plan: Array<{ topic: string; partition: number; from: string; end: number }> = [];
    if (opts.broadcast) {
      const since = Date.now() - opts.broadcast.sinceMs;
      // A partition's leader can move just after a broker (re)starts: the offsets are asked again then.
      for (let attempt = 1; ; attempt++) {
        const admin = this.kafka.admin();
        try {
          await admin.connect();
          plan.length = 0;
          for (const topic of opts.topics.map((t) => this.ns(t))) {
            const starts = await admin.fetchTopicOffsetsByTimestamp(topic, since);
            const ends = await admin.fetchTopicOffsets(topic);
            for (const st of starts) {
              const end = Number(ends.find((e) => e.partition === st.partition)?.high ?? st.offset);
              plan.push({ topic, partition: st.partition, from: st.offset, end });
            }
          }
          break;
        } catch (err) {
          if (attempt >= 5) throw err;
          this.opts.logger.warn({ err, attempt }, 'kafka: offsets for the replay not available yet; asking again');
          await new Promise((r) => setTimeout(r, 1000 * attempt));
        } finally {
          await admin.disconnect().catch(() => {});
        }
      }
    }
    // Partitions still to be replayed up to their end offset as of now; resolves when none is left.
    const behind = new Map(plan.filter((p) => Number(p.from) < p.end).map((p) => [`${p.topic}:${p.partition}`, p.end]));
    let caughtUp: () => void = () => {};
    const replayed = new Promise<void>((resolve) => (caughtUp = resolve));
    if (behind.size === 0) caughtUp();
    const log = this.opts.logger;
    // Where each replayed partition is to be read from next. It is applied every time the consumer
    // joins its group, not once after run(): a consumer that crashes while it starts (the group
    // coordinator still loading after a broker start) is restarted by kafkajs with a new group
    // object, which would lose a seek made once, and run() itself can return before that restart
    // (a seek then throws "consumer#run must be called first").
    const next = new Map(plan.map((p) => [`${p.topic}:${p.partition}`, p.from]));
    if (plan.length > 0) {
      consumer.on(consumer.events.GROUP_JOIN, () => {
        for (const p of plan) {
          const offset = next.get(`${p.topic}:${p.partition}`) ?? p.from;
          try {
            consumer.seek({ topic: p.topic, partition: p.partition, offset });
          } catch (err) {
            log.warn({ err, topic: p.topic, partition: p.partition }, 'kafka: replay seek not applied');
          }
        }
      });
    }
    // (kafkajs' run() resolves once the consumer has joined its group and been given its partitions)
    const running = consumer.run({
      // A broadcast group is this instance's alone and starts from sinceMs ago at every start (and at every
      // join: the seek above), so its committed offsets are never read: committing after each batch cost
      // an OffsetCommit round trip per event per process for nothing (issue 35).
      autoCommit: !opts.broadcast,
      eachMessage: async ({ message, topic, partition }) => {
        const k = `${topic}:${partition}`;
        // The replay position moves past a message once it is dealt with (handled or skipped), not when
        // its handler throws: kafkajs retries it, and a restart after a crash seeks back to it.
        const done = () => {
          if (next.has(k)) next.set(k, String(Number(message.offset) + 1));
        };
        try {
          if (!message.value) return done();
          let envelope: EventEnvelope;
          try {
            // (the publishers' makeEnvelope wrote it; consumers check each type's data against its schema)
            envelope = JSON.parse(message.value.toString('utf8')) as EventEnvelope;
          } catch (err) {
            // A poison message would block the partition forever; log and skip it.
            log.error({ err, topic, offset: message.offset }, 'unparseable event skipped');
            return done();
          }
          await opts.handler(envelope);
          done();
        } finally {
          const end = behind.get(k);
          if (end !== undefined && Number(message.offset) + 1 >= end) {
            behind.delete(k);
            if (behind.size === 0) caughtUp();
          }
        }
      },
    });
    if (!opts.broadcast?.awaitReplay) {
      this.consumers.push(consumer);
      // Not waited for here: joining a group that holds a member killed without leaving waits out that
      // member's session (sessionTimeout), then each rebalance waits for the live members; one group
      // after another, a documents replica restarted after a SIGKILL took about 25 s to join its six
      // groups (docs/perf/tests.md, session 22). joined() waits for every join; its failure surfaces there.
      running.catch(() => {});
      this.joins.push(running);
      return;
    }
    await running;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${opts.group}: replaying ${opts.topics.join(', ')} did not finish within ${REPLAY_TIMEOUT_MS / 1000} s`)),
        REPLAY_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([replayed, timedOut]);
    } catch (err) {
      await consumer.disconnect().catch(() => {});
      throw err;
    } finally {
      clearTimeout(timer);
    }
    this.consumers.push(consumer);
  }

  async joined(): Promise<void> {
    await Promise.all(this.joins);
  }

  /**
   * The broker answers a metadata request. One admin client, connected once and kept, answers every
   * check (the gateway asks each replica every few seconds): a new client per check cost a connection,
   * its handshake and a disconnect on both sides each time (issue 35). A failed check drops it, so the
   * next one connects afresh.
   */
  async isReady(): Promise<boolean> {
    if (this.closed) return false;
    try {
      await this.connectProducer();
      this.readinessAdmin ??= (async () => {
        const admin = this.kafka.admin();
        await admin.connect();
        return admin;
      })();
      const admin = await this.readinessAdmin;
      await admin.describeCluster();
      return true;
    } catch {
      const admin = this.readinessAdmin;
      this.readinessAdmin = null;
      void admin?.then((a) => a.disconnect()).catch(() => {});
      return false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const admin = this.readinessAdmin;
    this.readinessAdmin = null;
    if (admin) await admin.then((a) => a.disconnect()).catch(() => {});
    await Promise.allSettled(this.consumers.map((c) => c.disconnect()));
    if (this.producerConnected) await this.producer.disconnect().catch(() => {});
  }
}
