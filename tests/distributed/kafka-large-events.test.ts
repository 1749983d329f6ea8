import { KAFKA_EVENT_MAX_BYTES, KafkaBus } from '@countinghouse/kit';
import type { EventEnvelope } from '@countinghouse/proto';
import { randomBytes, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';

// A file sent against a client request or on a message thread travels base64 in its event (decision 281):
// a 5 MB bank statement is about 6.7 MB of event, above Kafka's default 1 MB message. On the real broker
// (TEST_KAFKA_BROKERS) such an event is published and consumed whole; without the topic's
// max.message.bytes (kit's ensureTopics) the broker refuses it (MESSAGE_TOO_LARGE) and the outbox would
// retry it for ever.

const brokers = process.env.TEST_KAFKA_BROKERS;
if (!brokers) throw new Error('TEST_KAFKA_BROKERS is not set: run the tests with `npm test`, which starts Kafka.');

const bus = new KafkaBus({
  brokers: brokers.split(','),
  clientId: 'large-events-test',
  logger: pino({ level: 'silent' }),
  instanceId: randomUUID(),
  namespace: `large-${randomUUID().slice(0, 8)}.`,
});
afterAll(() => bus.close());

describe('Kafka bus: an event carrying a 5 MB file', () => {
  it('is published and consumed whole', async () => {
    const file = randomBytes(5 * 1024 * 1024).toString('base64');
    const envelope = {
      id: randomUUID(),
      type: 'requests.item_submitted',
      occurredAt: new Date().toISOString(),
      data: { file },
    } as unknown as EventEnvelope;
    expect(JSON.stringify(envelope).length).toBeGreaterThan(6_900_000);
    expect(JSON.stringify(envelope).length).toBeLessThan(KAFKA_EVENT_MAX_BYTES);

    const seen: EventEnvelope[] = [];
    await bus.subscribe({ group: 'large-events', topics: ['large'], handler: async (e) => void seen.push(e) });
    await bus.publish('large', [{ key: 'client-1', envelope }]);
    const until = Date.now() + 60_000;
    while (seen.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect(seen).toHaveLength(1);
    expect(seen[0]!.id).toBe(envelope.id);
    expect((seen[0]!.data as { file: string }).file === file).toBe(true);
  });
});
