import { TOPICS, type EventEnvelope } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterCommit, enqueueEvent, InProcessBus, subscribe } from '../src/index.js';
import { createTestKit, waitFor, type TestKit } from '../src/testing/index.js';

let kit: TestKit;
beforeAll(async () => {
  // A relay that would not poll for a minute: whatever arrives sooner came from the after-commit kick.
  kit = await createTestKit({ relayIntervalMs: 60_000 });
});
afterAll(async () => {
  await kit?.close();
});

const actor = { kind: 'system' as const, id: null };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function envelope(type: string, data: unknown, id: string = crypto.randomUUID()): EventEnvelope {
  return { id, type, version: 1, occurredAt: new Date().toISOString(), actor, data };
}

/** A logger whose records are kept for the test to read. */
function capturingLogger() {
  const records: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      records.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), records };
}

describe('the outbox kicks its relay after commit', () => {
  const seen: string[] = [];
  beforeAll(async () => {
    await kit.runtime.bus.subscribe({
      group: 'kick-test',
      topics: [TOPICS.identity],
      handler: async (e) => {
        seen.push((e.data as { sessionId: string }).sessionId);
      },
    });
    kit.runtime.relay('identity');
    await sleep(200); // the relay's first pass (at start) is over; the next poll is a minute away
  });

  const revoke = (sessionId: string) => ({ sessionId, subjectId: 'x', until: 1 });

  it('publishes an event once its transaction commits, not before', async () => {
    await kit.runtime.db.transaction(async (tx) => {
      await enqueueEvent(tx, 'identity', 'identity.session_revoked', revoke('committed'), { actor });
      await sleep(300);
      expect(seen).not.toContain('committed');
    });
    await waitFor(() => seen.includes('committed'), 'the committed event relayed', 3000);
  });

  it('publishes nothing for a rolled-back transaction', async () => {
    await expect(
      kit.runtime.db.transaction(async (tx) => {
        await enqueueEvent(tx, 'identity', 'identity.session_revoked', revoke('rolled-back'), { actor });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await kit.runtime.db.transaction((tx) => enqueueEvent(tx, 'identity', 'identity.session_revoked', revoke('after'), { actor }));
    await waitFor(() => seen.includes('after'), 'the later event relayed', 3000);
    expect(seen).not.toContain('rolled-back');
  });

  it('kicks after the outer commit for an event written in a nested transaction', async () => {
    await kit.runtime.db.transaction(async (tx) => {
      await tx.transaction((inner) => enqueueEvent(inner, 'identity', 'identity.session_revoked', revoke('nested'), { actor }));
    });
    await waitFor(() => seen.includes('nested'), 'the nested event relayed', 3000);
  });

  it('kicks at once for an event written outside a transaction', async () => {
    await enqueueEvent(kit.runtime.db, 'identity', 'identity.session_revoked', revoke('autocommit'), { actor });
    await waitFor(() => seen.includes('autocommit'), 'the autocommitted event relayed', 3000);
  });

  it('runs an after-commit step once per key and transaction', async () => {
    let runs = 0;
    await kit.runtime.db.transaction(async (tx) => {
      afterCommit(tx, 'k', () => runs++);
      afterCommit(tx, 'k', () => runs++);
      expect(runs).toBe(0);
    });
    expect(runs).toBe(1);
  });
});

describe('subscribe: typed, checked, idempotent consumers', () => {
  it('applies each event once, skips a malformed one without recording it, ignores other types', async () => {
    const bus = new InProcessBus();
    const { logger, records } = capturingLogger();
    const applied: Array<{ id: string; sessionId: string }> = [];
    await subscribe(
      { bus, db: kit.runtime.db, logger },
      {
        group: 'test.sessions',
        types: ['identity.session_revoked'],
        schema: 'identity',
        handler: async (event, tx) => {
          await tx.execute(sql`select 1`);
          // typed from proto: no cast
          applied.push({ id: event.id, sessionId: event.data.sessionId });
        },
      },
    );
    const good = envelope('identity.session_revoked', { sessionId: 's1', subjectId: 'u1', until: 5 });
    await bus.publish(TOPICS.identity, [{ key: null, envelope: good }]);
    await bus.publish(TOPICS.identity, [{ key: null, envelope: good }]); // redelivered
    expect(applied).toEqual([{ id: good.id, sessionId: 's1' }]);

    const bad = envelope('identity.session_revoked', { sessionId: 's2', subjectId: 'u1', until: 'soon' });
    await bus.publish(TOPICS.identity, [{ key: null, envelope: bad }]);
    expect(applied).toHaveLength(1);
    const skipped = records.find((r) => r.msg === 'malformed event skipped');
    expect(skipped).toMatchObject({ eventId: bad.id, type: 'identity.session_revoked', consumer: 'test.sessions' });
    expect(String((skipped!.errors as string[])[0])).toContain('/until');
    const recorded = await kit.runtime.pool.query(
      `select event_id from identity.processed_events where consumer = 'test.sessions' order by event_id`,
    );
    expect(recorded.rows.map((r) => r.event_id)).toEqual([good.id]);

    await bus.publish(TOPICS.identity, [{ key: null, envelope: envelope('identity.staff_joined', { nonsense: true }) }]);
    expect(applied).toHaveLength(1);
    expect(records.filter((r) => r.msg === 'malformed event skipped')).toHaveLength(1);
  });

  it('narrows the data by type across several types and topics, and checks string formats', async () => {
    const bus = new InProcessBus();
    const { logger, records } = capturingLogger();
    const got: string[] = [];
    await subscribe(
      { bus, db: kit.runtime.db, logger },
      {
        group: 'test.mixed',
        types: ['identity.session_revoked', 'integrations.synced'],
        handler: async (event) => {
          if (event.type === 'integrations.synced') got.push(`synced ${event.data.syncedAt}`);
          else got.push(`revoked ${event.data.sessionId}`);
        },
      },
    );
    const synced = (syncedAt: string) => ({
      integrationId: 'i',
      clientId: 'c',
      integrationType: 'xero',
      syncedAt,
      currency: 'GBP',
      receivables: 1,
      payables: 2,
      overdueReceivables: 0,
      overduePayables: 0,
      contacts: 3,
      invoices: 4,
    });
    await bus.publish(TOPICS.integrations, [{ key: null, envelope: envelope('integrations.synced', synced('2026-12-31T09:30:00Z')) }]);
    await bus.publish(TOPICS.integrations, [{ key: null, envelope: envelope('integrations.synced', synced('yesterday')) }]);
    await bus.publish(TOPICS.identity, [
      { key: null, envelope: envelope('identity.session_revoked', { sessionId: 's9', subjectId: 'u', until: 1 }) },
    ]);
    expect(got).toEqual(['synced 2026-12-31T09:30:00Z', 'revoked s9']);
    expect(records.filter((r) => r.msg === 'malformed event skipped')).toHaveLength(1);
  });

  it("rolls back the handler's writes and the record together when the handler fails, so a redelivery applies", async () => {
    const bus = new InProcessBus();
    let attempts = 0;
    await subscribe(
      { bus, db: kit.runtime.db, logger: pino({ level: 'silent' }) },
      {
        group: 'test.failing',
        types: ['identity.session_revoked'],
        schema: 'identity',
        handler: async (event, tx) => {
          attempts++;
          await enqueueEvent(tx, 'identity', 'identity.session_revoked', { ...event.data, sessionId: `echo-${attempts}` }, { actor });
          if (attempts === 1) throw new Error('handler down');
        },
      },
    );
    const e = envelope('identity.session_revoked', { sessionId: 'f', subjectId: 'u', until: 1 });
    await expect(bus.publish(TOPICS.identity, [{ key: null, envelope: e }])).rejects.toThrow('handler down');
    await bus.publish(TOPICS.identity, [{ key: null, envelope: e }]);
    expect(attempts).toBe(2);
    const { rows } = await kit.runtime.pool.query(
      `select envelope->'data'->>'sessionId' as s from identity.outbox where envelope->'data'->>'sessionId' like 'echo-%'`,
    );
    expect(rows.map((r) => r.s)).toEqual(['echo-2']);
  });
});
