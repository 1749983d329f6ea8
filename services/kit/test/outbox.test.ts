import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { sql } from 'drizzle-orm';
import { InProcessBus, OutboxRelay, enqueueEvent, idempotent, type BusMessage, type EventBus } from '../src/index.js';
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
});
