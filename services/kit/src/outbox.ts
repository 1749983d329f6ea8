import { topicOf, type Actor, type EventEnvelope, type EventType, type EventData } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { EventBus, EventHandler } from './bus.js';
import { outboxWritten, type Db, type DbOrTx } from './db.js';

export function makeEnvelope<T extends EventType>(type: T, data: EventData<T>, actor: Actor, version = 1): EventEnvelope<EventData<T>> {
  return { id: randomUUID(), type, version, occurredAt: new Date().toISOString(), actor, data };
}

/**
 * Write an event into the service's outbox, inside the caller's transaction: the change and its event
 * commit together or not at all. Once the transaction commits, the service's relay is kicked by itself
 * (no `relay.kick()` after the transaction).
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
    insert into ${sql.identifier(schema)}.outbox (event_id, topic, key, type, envelope)
    values (${envelope.id}, ${topicOf(type)}, ${opts.key ?? null}, ${type}, ${JSON.stringify(envelope)}::jsonb)`);
  outboxWritten(tx, schema);
  return envelope;
}

export interface RelayOptions {
  pool: pg.Pool;
  schema: string;
  bus: EventBus;
  logger: Logger;
  intervalMs?: number;
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
  private readonly batchSize: number;

  constructor(private readonly o: RelayOptions) {
    this.intervalMs = o.intervalMs ?? 250;
    this.batchSize = o.batchSize ?? 200;
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
    const next = backoff || (published === this.batchSize || this.again ? 0 : this.intervalMs);
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
            String((err as Error)?.message ?? err).slice(0, 500),
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
  handler: (envelope: EventEnvelope, tx: Db) => Promise<void>,
): EventHandler {
  return async (envelope) => {
    await db.transaction(async (tx) => {
      const res = await tx.execute(sql`
        insert into ${sql.identifier(schema)}.processed_events (consumer, event_id)
        values (${consumer}, ${envelope.id}) on conflict do nothing returning event_id`);
      if (res.rows.length === 0) return; // already handled
      await handler(envelope, tx as unknown as Db);
    });
  };
}
