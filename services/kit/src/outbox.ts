import { topicOf, type Actor, type EventEnvelope, type EventType, type EventData } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import type { EventBus, EventHandler } from './bus.js';
import { outboxWritten, type Db, type DbOrTx } from './db.js';
import { errorMessage } from './errors.js';

export function makeEnvelope<T extends EventType>(type: T, data: EventData<T>, actor: Actor, version = 1): EventEnvelope<EventData<T>> {
  return { id: randomUUID(), type, version, occurredAt: new Date().toISOString(), actor, data };
}

/**
 * The PostgreSQL channel every outbox write is announced on (NOTIFY, payload: the schema). PostgreSQL
 * delivers it when the writing transaction commits, and not at all when it rolls back, to every process
 * LISTENing (OutboxListener): a replica, or a process that did not write the row, learns of it at once
 * instead of polling for it.
 */
export const OUTBOX_CHANNEL = 'ch_outbox';

/** `sql` (a statement returning rows) followed by the outbox's NOTIFY, in one round trip. */
export function withOutboxNotify(insertReturning: string, schema: string): string {
  quoteIdent(schema); // throws unless a plain lower-case name: safe inside the literal
  return `with written as (${insertReturning}) select pg_notify('${OUTBOX_CHANNEL}', '${schema}') from written`;
}

/**
 * Write an event into the service's outbox, inside the caller's transaction: the change and its event
 * commit together or not at all. Once the transaction commits, the service's relay is kicked by itself
 * (no `relay.kick()` after the transaction), and every other process of the service by the NOTIFY.
 */
export async function enqueueEvent<T extends EventType>(
  tx: DbOrTx,
  schema: string,
  type: T,
  data: EventData<T>,
  opts: { actor: Actor; key?: string | null },
): Promise<EventEnvelope<EventData<T>>> {
  const envelope = makeEnvelope(type, data, opts.actor);
  await tx.execute(sql`
    with written as (
      insert into ${sql.identifier(schema)}.outbox (event_id, topic, key, type, envelope)
      values (${envelope.id}, ${topicOf(type)}, ${opts.key ?? null}, ${type}, ${JSON.stringify(envelope)}::jsonb)
      returning 1)
    select pg_notify(${OUTBOX_CHANNEL}, ${schema}) from written`);
  outboxWritten(tx, schema);
  return envelope;
}

export interface RelayOptions {
  pool: pg.Pool;
  schema: string;
  bus: EventBus;
  logger: Logger;
  /** How often to look for rows when nothing tells the relay of them (no LISTEN connection). */
  intervalMs?: number;
  /**
   * How often to look while an OutboxListener is connected (setListening): only for rows a NOTIFY
   * could not announce (a process that died between its commit and its publish, a notification lost
   * in a reconnect).
   */
  safetyIntervalMs?: number;
  batchSize?: number;
}

/**
 * Publishes a service's outbox to the bus and marks rows sent. Rows are claimed with SKIP LOCKED so
 * replicas share the work; a bus outage leaves rows unsent and the relay backs off, so events are
 * delayed, never lost.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private again = false;
  private stopped = false;
  private failures = 0;
  private readonly intervalMs: number;
  private readonly safetyIntervalMs: number;
  private pollMs: number;
  private readonly batchSize: number;

  constructor(private readonly o: RelayOptions) {
    this.intervalMs = o.intervalMs ?? 250;
    this.safetyIntervalMs = Math.max(this.intervalMs, o.safetyIntervalMs ?? 10_000);
    this.pollMs = this.intervalMs;
    this.batchSize = o.batchSize ?? 200;
  }

  /**
   * Whether a NOTIFY reaches this relay (its process's OutboxListener is connected): then it polls only
   * every safetyIntervalMs. Either way it looks once now, for what came while the state changed.
   */
  setListening(listening: boolean): void {
    this.pollMs = listening ? this.safetyIntervalMs : this.intervalMs;
    this.kick();
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /**
   * Ask for a pass now, instead of waiting for the next tick. enqueueEvent does this after its
   * transaction commits; call it by hand only after writing the outbox some other way.
   */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.failures > 0) return; // backing off: the timer will come
    this.schedule(0);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref?.();
  }

  private async tick() {
    this.timer = null;
    if (this.running || this.stopped) return;
    this.running = true;
    let published = 0;
    try {
      published = await this.drainOnce();
      this.failures = 0;
    } catch (err) {
      this.failures++;
      this.o.logger.warn({ err, schema: this.o.schema, failures: this.failures }, 'outbox relay: publish failed, will retry');
    } finally {
      this.running = false;
    }
    const backoff = this.failures > 0 ? Math.min(5000, 200 * 2 ** (this.failures - 1)) : 0;
    const next = backoff || (published === this.batchSize || this.again ? 0 : this.pollMs);
    this.again = false;
    this.schedule(next);
  }

  /** One pass: claim a batch, publish it grouped by topic, mark it sent. Returns how many were sent. */
  async drainOnce(): Promise<number> {
    const client = await this.o.pool.connect();
    const table = `${quoteIdent(this.o.schema)}.outbox`;
    try {
      await client.query('begin');
      const { rows } = await client.query<{ id: string; topic: string; key: string | null; envelope: EventEnvelope }>(
        `select id, topic, key, envelope from ${table} where published_at is null order by id limit $1 for update skip locked`,
        [this.batchSize],
      );
      if (rows.length === 0) {
        await client.query('commit');
        return 0;
      }
      const byTopic = new Map<string, typeof rows>();
      for (const r of rows) byTopic.set(r.topic, [...(byTopic.get(r.topic) ?? []), r]);
      try {
        for (const [topic, list] of byTopic) {
          await this.o.bus.publish(
            topic,
            list.map((r) => ({ key: r.key, envelope: r.envelope })),
          );
        }
      } catch (err) {
        await client.query('rollback');
        await this.o.pool
          .query(`update ${table} set attempts = attempts + 1, last_error = $2 where id = any($1::bigint[])`, [
            rows.map((r) => r.id),
            errorMessage(err).slice(0, 500),
          ])
          .catch(() => {});
        throw err;
      }
      await client.query(`update ${table} set published_at = now() where id = any($1::bigint[])`, [rows.map((r) => r.id)]);
      await client.query('commit');
      return rows.length;
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // let a pass in flight finish
    for (let i = 0; i < 100 && this.running; i++) await new Promise((r) => setTimeout(r, 20));
  }
}

export interface OutboxListenerOptions {
  connectionString: string;
  logger: Logger;
  /** A committed outbox write in `schema` (from any process). */
  onWrite(schema: string): void;
  /** Connected and listening (true), or the connection lost (false, until it is back). */
  onState(listening: boolean): void;
}

/**
 * One connection per process, LISTENing on OUTBOX_CHANNEL, so the relays sleep instead of polling
 * (issue 35: idle that costs nothing). The connection is its own, not the pool's: a pooled client goes
 * back to the pool and would stop listening. Lost, it reconnects with a backoff (0.5 s doubling to
 * 10 s); meanwhile the relays poll as before (onState(false)).
 */
export class OutboxListener {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private failures = 0;

  constructor(private readonly o: OutboxListenerOptions) {}

  /** Connects (at most once at a time); a failure is retried in the background, never thrown. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  get listening(): boolean {
    return this.client !== null;
  }

  private async connect(): Promise<void> {
    this.timer = null;
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.o.connectionString, keepAlive: true });
    client.on('notification', (m) => {
      if (m.channel === OUTBOX_CHANNEL && m.payload) this.o.onWrite(m.payload);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${OUTBOX_CHANNEL}`);
    } catch (err) {
      client.removeAllListeners('end');
      client.end().catch(() => {});
      this.failures++;
      if (this.failures === 1) this.o.logger.warn({ err }, 'outbox listener: cannot listen, the relays poll meanwhile');
      this.retry();
      return;
    }
    if (this.stopped) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      return;
    }
    if (this.failures > 0) this.o.logger.info({ failures: this.failures }, 'outbox listener: listening again');
    this.failures = 0;
    this.client = client;
    this.o.onState(true);
  }

  private lost(client: pg.Client) {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => {});
    if (this.stopped) return;
    this.o.logger.warn('outbox listener: connection lost, the relays poll until it is back');
    this.o.onState(false);
    this.retry();
  }

  private retry() {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => void this.connect(), Math.min(10_000, 500 * 2 ** Math.min(this.failures, 5)));
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const c = this.client;
    this.client = null;
    if (c) await c.end().catch(() => {});
  }
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Bad schema name ${name}`);
  return `"${name}"`;
}

/**
 * Wrap a handler so each event id is processed at most once per consumer: the processed-event row
 * and the handler's writes share one transaction. At-least-once delivery + this = exactly-once effect.
 */
export function idempotent(
  db: Db,
  schema: string,
  consumer: string,
  handler: (envelope: EventEnvelope, tx: DbOrTx) => Promise<void>,
): EventHandler {
  return async (envelope) => {
    await db.transaction(async (tx) => {
      const res = await tx.execute(sql`
        insert into ${sql.identifier(schema)}.processed_events (consumer, event_id)
        values (${consumer}, ${envelope.id}) on conflict do nothing returning event_id`);
      if (res.rows.length === 0) return; // already handled
      await handler(envelope, tx);
    });
  };
}
