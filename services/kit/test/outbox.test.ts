import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { sql } from 'drizzle-orm';
import {
  InProcessBus,
  OutboxListener,
  OutboxRelay,
  createDb,
  createPool,
  endPool,
  enqueueEvent,
  idempotent,
  type BusMessage,
  type EventBus,
} from '../src/index.js';
import { createTestKit, waitFor, type TestKit } from '../src/testing/index.js';

let kit: TestKit;
beforeAll(async () => {
  kit = await createTestKit();
});
afterAll(async () => {
  await kit?.close();
});

const actor = { kind: 'system' as const, id: null };

/** A bus that fails while `down` is true, like a broker outage. */
class FlakyBus implements EventBus {
  readonly kind = 'in-process' as const;
  down = true;
  delivered: BusMessage[] = [];
  async publish(_topic: string, messages: BusMessage[]) {
    if (this.down) throw new Error('broker unavailable');
    this.delivered.push(...messages);
  }
  async subscribe() {}
  async joined() {}
  async isReady() {
    return !this.down;
  }
  async close() {}
}

describe('transactional outbox', () => {
  it('an event written in a rolled-back transaction never leaves', async () => {
    await expect(
      kit.runtime.db.transaction(async (tx) => {
        await enqueueEvent(tx, 'identity', 'identity.session_revoked', { sessionId: 'rolled-back', subjectId: 'x', until: 1 }, { actor });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const { rows } = await kit.runtime.pool.query(
      `select count(*)::int as n from identity.outbox where envelope->'data'->>'sessionId' = 'rolled-back'`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('a bus outage delays events, never loses them, and keeps their order', async () => {
    const bus = new FlakyBus();
    const relay = new OutboxRelay({ pool: kit.runtime.pool, schema: 'identity', bus, logger: pino({ level: 'silent' }), intervalMs: 20 });
    await kit.runtime.pool.query('update identity.outbox set published_at = now() where published_at is null');
    for (let i = 0; i < 5; i++) {
      await kit.runtime.db.transaction((tx) =>
        enqueueEvent(tx, 'identity', 'identity.session_revoked', { sessionId: `s${i}`, subjectId: 'x', until: i }, { actor }),
      );
    }
    relay.start();
    await waitFor(
      async () =>
        (await kit.runtime.pool.query('select max(attempts) as a from identity.outbox where published_at is null')).rows[0].a >= 2,
      'failed attempts recorded',
    );
    expect(bus.delivered).toHaveLength(0);
    bus.down = false;
    await waitFor(() => bus.delivered.length === 5, 'delivery after the outage', 15_000);
    await relay.stop();
    expect(bus.delivered.map((m) => (m.envelope.data as { sessionId: string }).sessionId)).toEqual(['s0', 's1', 's2', 's3', 's4']);
    const { rows } = await kit.runtime.pool.query('select count(*)::int as n from identity.outbox where published_at is null');
    expect(rows[0].n).toBe(0);
  });

  it('an idempotent consumer applies a redelivered event once', async () => {
    const bus = new InProcessBus();
    const applied: string[] = [];
    const handler = idempotent(kit.runtime.db, 'identity', 'test-consumer', async (e, tx) => {
      await tx.execute(sql`select 1`);
      applied.push(e.id);
    });
    await bus.subscribe({ group: 'g', topics: ['t'], handler });
    const envelope = {
      id: crypto.randomUUID(),
      type: 'identity.session_revoked',
      version: 1,
      occurredAt: new Date().toISOString(),
      actor,
      data: {},
    };
    await bus.publish('t', [{ key: null, envelope }]);
    await bus.publish('t', [{ key: null, envelope }]);
    expect(applied).toEqual([envelope.id]);
  });

  it('a failing consumer makes the in-process publish fail, so the relay retries', async () => {
    const bus = new InProcessBus();
    let calls = 0;
    await bus.subscribe({
      group: 'g',
      topics: ['t'],
      handler: async () => {
        calls++;
        if (calls === 1) throw new Error('consumer down');
      },
    });
    const envelope = { id: crypto.randomUUID(), type: 'x.y', version: 1, occurredAt: new Date().toISOString(), actor, data: {} };
    await expect(bus.publish('t', [{ key: null, envelope }])).rejects.toThrow('consumer down');
    await bus.publish('t', [{ key: null, envelope }]);
    expect(calls).toBe(2);
  });

  it('a write from another process reaches a sleeping relay by NOTIFY at commit, and after the listener reconnects', async () => {
    const bus = new FlakyBus();
    bus.down = false;
    const logger = pino({ level: 'silent' });
    // the relay polls once a minute: only the NOTIFY can bring an event within the test's seconds
    const relay = new OutboxRelay({
      pool: kit.runtime.pool,
      schema: 'identity',
      bus,
      logger,
      intervalMs: 60_000,
      safetyIntervalMs: 60_000,
    });
    const states: boolean[] = [];
    const listener = new OutboxListener({
      connectionString: kit.db.url,
      logger,
      onWrite: (schema) => schema === 'identity' && relay.kick(),
      onState: (on) => {
        states.push(on);
        relay.setListening(on);
      },
    });
    // "another process": its own pool and database handle, which the runtime's relays know nothing of
    const otherPool = createPool(kit.db.url, 2);
    const other = createDb(otherPool);
    const write = (sessionId: string, fail = false) =>
      other.transaction(async (tx) => {
        await enqueueEvent(tx, 'identity', 'identity.session_revoked', { sessionId, subjectId: 'x', until: 1 }, { actor });
        if (fail) throw new Error('abort');
      });
    const sent = () => bus.delivered.map((m) => (m.envelope.data as { sessionId: string }).sessionId);
    try {
      await kit.runtime.pool.query('update identity.outbox set published_at = now() where published_at is null');
      await listener.start();
      expect(listener.listening).toBe(true);
      relay.start();
      await new Promise((r) => setTimeout(r, 300)); // the relay's first pass is over: it now sleeps for a minute

      const t0 = Date.now();
      await write('notified-1');
      await waitFor(() => sent().includes('notified-1'), 'the event, announced by NOTIFY', 5000);
      expect(Date.now() - t0).toBeLessThan(2000);

      // a rolled-back write announces nothing (and leaves nothing to send)
      await expect(write('rolled-back-2', true)).rejects.toThrow('abort');

      // the listening connection dies (a server restart, a failover): the relay polls meanwhile, the
      // listener comes back by itself, and NOTIFYs reach the relay again
      await kit.runtime.pool.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
      );
      await waitFor(() => states.length >= 3, 'the listener lost and back', 10_000);
      expect(states.slice(0, 3)).toEqual([true, false, true]);
      await write('notified-3');
      await waitFor(() => sent().includes('notified-3'), 'the event after the reconnection', 5000);
      expect(sent()).not.toContain('rolled-back-2');
    } finally {
      await relay.stop();
      await listener.stop();
      await endPool(otherPool);
    }
  });
});
