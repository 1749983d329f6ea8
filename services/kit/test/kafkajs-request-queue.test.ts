import { afterEach, describe, expect, it } from 'vitest';
import { KafkaRequestQueue } from '../src/kafkajs-request-queue.js';
import '../src/index.js';

// kafkajs' request queue (one per broker connection) with nothing pending: Node.js 24 warned at every
// start (TimeoutNegativeWarning) and the queue checked itself every 1 ms forever (decision 244).

const silent = { debug() {}, info() {}, warn() {}, error() {} };
type Queue = InstanceType<typeof KafkaRequestQueue> & {
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  requestTimeoutIntervalId: ReturnType<typeof setTimeout> | undefined;
  destroy(): void;
  scheduleRequestTimeoutCheck(): void;
  push(r: { entry: Record<string, unknown>; expectResponse: boolean; sendRequest(): void; requestTimeout?: number }): void;
  fulfillRequest(r: { correlationId: number; payload: null; size: number }): void;
};
const queue = (requestTimeout = 10_000): Queue =>
  new KafkaRequestQueue({
    maxInFlightRequests: 1,
    requestTimeout,
    enforceRequestTimeout: true,
    clientId: 'test',
    broker: '127.0.0.1:1',
    logger: silent,
  }) as Queue;

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

  it('a connected queue with nothing in flight keeps no timer (kafkajs alone: one every 100 ms per connection)', () => {
    const q = queue();
    q.scheduleRequestTimeoutCheck(); // what kafkajs does when the connection is made
    expect(q.requestTimeoutIntervalId).toBeUndefined();
    q.destroy();
  });

  it('a request in flight still times out at its deadline; one answered in time leaves no timer behind', async () => {
    const q = queue(40);
    q.scheduleRequestTimeoutCheck();
    const request = (correlationId: number) => {
      let settle: (r: string) => void = () => {};
      const outcome = new Promise<string>((r) => (settle = r));
      q.push({
        entry: {
          correlationId,
          apiName: 'Fetch',
          apiKey: 1,
          apiVersion: 11,
          resolve: () => settle('answered'),
          reject: (e: Error) => settle(e.name),
        },
        expectResponse: true,
        sendRequest() {},
      });
      return outcome;
    };
    const t0 = Date.now();
    expect(await request(1)).toBe('KafkaJSRequestTimeoutError');
    const waited = Date.now() - t0;
    expect(waited).toBeGreaterThanOrEqual(40);
    expect(waited).toBeLessThan(500);
    expect(q.requestTimeoutIntervalId).toBeUndefined(); // nothing in flight: no timer

    const answered = request(2);
    expect(q.requestTimeoutIntervalId).toBeDefined();
    q.fulfillRequest({ correlationId: 2, payload: null, size: 0 });
    expect(await answered).toBe('answered');
    await new Promise((r) => setTimeout(r, 80)); // its deadline passes: the timer runs once, finds nothing
    expect(q.requestTimeoutIntervalId).toBeUndefined();
    q.destroy();
  });
});
