import { KafkaBus } from '@countinghouse/kit';
import type { EventEnvelope } from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';

// A service's consumer groups join side by side (kit's KafkaBus): subscribe() returns once the consumer is
// subscribed, its join goes on meanwhile, and joined() (which a process awaits before it listens) waits for
// every join. One group after another, a documents replica restarted after a SIGKILL took about 25 s to join
// its six groups (each join waited for the killed member's session, then for the live replica); side by side
// about 10 s (docs/perf/tests.md, session 22). On the real broker (TEST_KAFKA_BROKERS).

const brokers = process.env.TEST_KAFKA_BROKERS;
if (!brokers) throw new Error('TEST_KAFKA_BROKERS is not set: run the tests with `npm test`, which starts Kafka.');

const namespace = `joins-${randomUUID().slice(0, 8)}.`;
const buses: KafkaBus[] = [];
const newBus = () => {
  const bus = new KafkaBus({
    brokers: brokers.split(','),
    clientId: 'joins-test',
    logger: pino({ level: 'silent' }),
    instanceId: randomUUID(),
    namespace,
  });
  buses.push(bus);
  return bus;
};
const admin = new Kafka({ brokers: brokers.split(','), clientId: 'joins-test-admin', logLevel: logLevel.NOTHING }).admin();
afterAll(async () => {
  await Promise.all(buses.map((b) => b.close()));
  await admin.disconnect();
});

const envelope = (type: string): EventEnvelope =>
  ({ id: randomUUID(), type, occurredAt: new Date().toISOString(), data: {} }) as unknown as EventEnvelope;

async function members(group: string): Promise<{ state: string; members: number }> {
  const { groups } = await admin.describeGroups([`${namespace}${group}`]);
  return { state: groups[0]!.state, members: groups[0]!.members.length };
}

describe('Kafka bus: consumer groups join side by side', () => {
  it('joined() waits for every group to be joined; what was published between subscribe() and the join is handled', async () => {
    await admin.connect();
    const bus = newBus();
    const seen = new Map<string, string[]>();
    const groups = ['one', 'two', 'three'];
    for (const g of groups) {
      await bus.subscribe({ group: g, topics: [`joins-${g}`], handler: async (e) => void seen.set(g, [...(seen.get(g) ?? []), e.id]) });
    }
    // (published before any group has surely joined: a new group reads from the start, so nothing is lost)
    const sent = groups.map((g) => ({ g, e: envelope(`test.${g}`) }));
    for (const { g, e } of sent) await bus.publish(`joins-${g}`, [{ key: 'k', envelope: e }]);
    await bus.joined();
    for (const g of groups) expect(await members(g), g).toEqual({ state: 'Stable', members: 1 });
    const until = Date.now() + 30_000;
    while (sent.some(({ g }) => !seen.get(g)?.length) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    for (const { g, e } of sent) expect(seen.get(g), g).toEqual([e.id]);
  });
});
