import { TOPICS, type EventEnvelope } from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type pg from 'pg';
import { pino, type Logger, type LoggerOptions } from 'pino';
import pinoPretty from 'pino-pretty';
import { applyRevocationEvent, REVOCATION_REPLAY_MS, RevocationList, TokenVerifier } from './auth.js';
import { InProcessBus, KafkaBus, type EventBus } from './bus.js';
import type { KafkaClientOptions } from './config.js';
import { createDb, createPool, endPool, migrateAs, onOutboxWrite, pingDb, type Db } from './db.js';
import { BullMqJobQueue, JOBS_SCHEMA, migrateJobsSchema, PgJobQueue, type JobQueue } from './jobs.js';
import { OutboxListener, OutboxRelay } from './outbox.js';

/**
 * What a service plugin is given: the shared adapters. All-in-one builds one runtime with in-process
 * adapters for every plugin; distributed mode builds one per process with Kafka and BullMQ.
 */
export interface Runtime {
  readonly instanceId: string;
  readonly logger: Logger;
  readonly pool: pg.Pool;
  readonly db: Db;
  readonly bus: EventBus;
  readonly jobs: JobQueue;
  readonly verifier: TokenVerifier;
  readonly demoMode: boolean;
  readonly publicUrl: string;
  /**
   * Start relaying a service schema's outbox. An event written through `db` (enqueueEvent) kicks it once
   * its transaction commits; the relay also polls (relayIntervalMs) for rows written otherwise.
   */
  relay(schema: string): OutboxRelay;
  healthChecks(): Record<string, () => Promise<boolean>>;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  serviceName: string;
  databaseUrl: string;
  poolSize?: number;
  kafkaBrokers?: string;
  /** Prefix of topics and consumer groups (KAFKA_NAMESPACE). */
  kafkaNamespace?: string;
  /** TLS, SASL, replication factor and partitions of the Kafka client (kafkaClientOptions). */
  kafka?: KafkaClientOptions;
  /** The owner's URL: migrations and grants run through it (DATABASE_MIGRATION_URL); empty: databaseUrl. */
  migrationDatabaseUrl?: string;
  redisUrl?: string;
  /** Prefix of the BullMQ keys (BULLMQ_PREFIX). */
  jobsPrefix?: string;
  publicKeyPem: string;
  logger?: Logger;
  logLevel?: string;
  demoMode?: boolean;
  publicUrl?: string;
  /** How often a relay looks for outbox rows while no NOTIFY reaches it (default 250 ms). */
  relayIntervalMs?: number;
  /** How often it looks while this process LISTENs for outbox writes (default 10 s; OutboxRelay). */
  relaySafetyIntervalMs?: number;
  /** PostgreSQL queue: how often idle workers poll (a job enqueued in this process starts at once). */
  jobsPollingMs?: number;
  /** PostgreSQL queue: how often this process checks its schedules for a due slot. */
  scheduleTickMs?: number;
}

/**
 * The services' logger. JSON lines for machines (a file, a pipe, a log collector); on a terminal
 * (`npm start` in a shell) the same records through pino-pretty, one readable line each (issue 22).
 * `pretty` defaults to whether stdout is a terminal.
 */
export function createLogger(name: string, level = 'info', o: { pretty?: boolean } = {}): Logger {
  const pretty = o.pretty ?? Boolean(process.stdout.isTTY);
  const options: LoggerOptions = {
    name,
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.token',
        '*.session_token',
        '*.refresh_token',
        '*.access_token',
      ],
      censor: '[redacted]',
    },
  };
  if (!pretty) return pino(options);
  // Synchronous stream: nothing is lost when the process exits, and no worker thread per process.
  return pino(options, pinoPretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' }));
}

export async function createRuntime(o: RuntimeOptions): Promise<Runtime> {
  const logger = o.logger ?? createLogger(o.serviceName, o.logLevel);
  const instanceId = `${o.serviceName}-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const pool = createPool(o.databaseUrl, o.poolSize ?? 10);
  if (o.migrationDatabaseUrl) migrateAs(pool, o.migrationDatabaseUrl);
  const db = createDb(pool);
  const bus: EventBus = o.kafkaBrokers
    ? new KafkaBus({
        brokers: o.kafkaBrokers
          .split(',')
          .map((b) => b.trim())
          .filter(Boolean),
        clientId: o.serviceName,
        logger,
        instanceId,
        namespace: o.kafkaNamespace,
        ...o.kafka,
      })
    : new InProcessBus();
  // Jobs are durable in both modes: BullMQ on Redis when distributed, pg-boss on this PostgreSQL otherwise.
  let jobs: JobQueue;
  if (o.redisUrl) {
    await migrateJobsSchema(pool);
    jobs = new BullMqJobQueue(o.redisUrl, logger, o.jobsPrefix, { pool });
  } else {
    const pgJobs = new PgJobQueue({ pool, logger, pollingIntervalMs: o.jobsPollingMs, scheduleTickMs: o.scheduleTickMs });
    await pgJobs.start();
    jobs = pgJobs;
  }
  const revocations = new RevocationList();
  const verifier = await TokenVerifier.fromPem(o.publicKeyPem, revocations);
  const relays = new Map<string, OutboxRelay>();
  // An event written by any process (this one, another replica, a job worker, a script) kicks its
  // schema's relay through the NOTIFY that commits with it: the relays sleep between events instead of
  // polling every 250 ms (issue 35).
  const listener = new OutboxListener({
    connectionString: o.databaseUrl,
    logger,
    onWrite: (schema) => relays.get(schema)?.kick(),
    onState: (listening) => {
      for (const r of relays.values()) r.setListening(listening);
    },
  });

  // Every instance learns of revoked sessions and withdrawn access by event. On Kafka it first replays
  // a whole token lifetime and is not created until that replay is handled, so a restarted service
  // refuses what was revoked before it started. (In-process, identity's plugin loads its table into this
  // same list before the app listens: docs/decisions.md.)
  await bus.subscribe({
    group: `${o.serviceName}.revocations`,
    topics: [TOPICS.identity],
    broadcast: { sinceMs: REVOCATION_REPLAY_MS, awaitReplay: true },
    handler: async (e: EventEnvelope) => applyRevocationEvent(revocations, e),
  });
  // While that connection is down, an event written through this database kicks its relay itself once
  // the transaction commits. (Not while it is up: this process's own NOTIFY kicks it too, and a second
  // kick cost a second, empty pass over the outbox for every event.)
  onOutboxWrite(db, (schema) => {
    if (!listener.listening) relays.get(schema)?.kick();
  });
  const pruneTimer = setInterval(() => revocations.prune(), 60_000);
  pruneTimer.unref();
  await listener.start();

  const runtime: Runtime = {
    instanceId,
    logger,
    pool,
    db,
    bus,
    jobs,
    verifier,
    demoMode: o.demoMode ?? false,
    publicUrl: o.publicUrl ?? 'http://localhost:3000',
    relay(schema: string) {
      let r = relays.get(schema);
      if (!r) {
        r = new OutboxRelay({ pool, schema, bus, logger, intervalMs: o.relayIntervalMs, safetyIntervalMs: o.relaySafetyIntervalMs });
        relays.set(schema, r);
        if (listener.listening) r.setListening(true);
        r.start();
      }
      return r;
    },
    healthChecks() {
      return { database: () => pingDb(db), bus: () => bus.isReady(), jobs: () => jobs.isReady() };
    },
    async close() {
      clearInterval(pruneTimer);
      // Jobs first: a job still finishing writes its outcome (and perhaps an event) before the relays stop.
      await jobs.close().catch(() => {});
      await Promise.allSettled([...relays.values()].map((r) => r.stop()));
      await listener.stop();
      await bus.close().catch(() => {});
      await endPool(pool).catch(() => {});
    },
  };
  // jobs.failed events (a job that failed for good) leave through the jobs schema's outbox.
  runtime.relay(JOBS_SCHEMA);
  return runtime;
}
