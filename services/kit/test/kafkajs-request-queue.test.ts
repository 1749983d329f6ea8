import { afterEach, describe, expect, it } from 'vitest';
import { KafkaRequestQueue } from '../src/kafkajs-request-queue.js';
import '../src/index.js';

// kafkajs' request queue (one per broker connection) with nothing pending: Node.js 24 warned at every
// start (TimeoutNegativeWarning) and the queue checked itself every 1 ms forever (decision 244).

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const queue = () =>
  new KafkaRequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 10_000,
    enforceRequestTimeout: true,
    clientId: 'test',
    broker: '127.0.0.1:1',
    logger: silent,
  }) as InstanceType<typeof KafkaRequestQueue> & { throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null; destroy(): void };

const warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);
process.on('warning', onWarning);
afterEach(() => {
  warnings.length = 0;
});

describe("kafkajs' request queue, idle", () => {
  it('an empty, unthrottled queue schedules no further check and emits no warning', async () => {
    const q = queue();
    let checks = 0;
    const check = q.checkPendingRequests.bind(q);
    q.checkPendingRequests = () => {
      checks += 1;
      check();
    };
    q.checkPendingRequests(); // what kafkajs does after each answer
    expect(q.throttleCheckTimeoutId).toBeNull();
    await new Promise((r) => setTimeout(r, 100));
    expect(checks, 'checks in 100 ms (kafkajs 2.2.4 alone: one every ~1 ms)').toBe(1);
    expect(warnings.map((w) => w.name)).not.toContain('TimeoutNegativeWarning');
  });

  it('a request waiting out a throttle still gets its check at the throttle end', async () => {
    const q = queue();
    q.throttledUntil = Date.now() + 30;
    let checks = 0;
    q.checkPendingRequests = () => {
      checks += 1;
    };
    q.pending.push({ fake: true });
    q.scheduleCheckPendingRequests();
    expect(q.throttleCheckTimeoutId).not.toBeNull();
    await new Promise((r) => setTimeout(r, 120));
    expect(checks).toBe(1);
  });

  it('an empty queue under a throttle checks once at its end, not in a loop', async () => {
    const q = queue();
    q.throttledUntil = Date.now() + 20;
    let checks = 0;
    const check = q.checkPendingRequests.bind(q);
    q.checkPendingRequests = () => {
      checks += 1;
      check();
    };
    q.scheduleCheckPendingRequests();
    await new Promise((r) => setTimeout(r, 120));
    // Once, or twice when the timer fires a millisecond before Date.now() reaches the throttle's end
    // (Node's timers and Date.now() round differently): never the 1 ms loop (about 100 in 120 ms).
    expect(checks).toBeGreaterThanOrEqual(1);
    expect(checks).toBeLessThanOrEqual(2);
    expect(q.throttleCheckTimeoutId).toBeNull();
  });
});
