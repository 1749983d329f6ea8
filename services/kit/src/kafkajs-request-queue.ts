// kafkajs 2.2.4 (its last release) ends every check of a connection's pending requests by scheduling the
// next one, also when nothing is pending and nothing throttled: `setTimeout(check, -1 - Date.now())`.
// Node clamps that delay to 1 ms, so every broker connection of every process checked an empty queue
// about a thousand times a second, forever (kafkajs issue 1704); Node.js 24 also warns about it at each
// start ("TimeoutNegativeWarning: -1795710889932 is a negative number", kafkajs issue 1751). Nothing is
// lost by not scheduling then: a request pushed later is sent at once or schedules its own check, and an
// answer that frees a slot checks the queue again. This is the fix proposed upstream (kafkajs PR 1768's
// review) applied to kafkajs' own class, once, before the kit creates any Kafka client (decision 244).
import { createRequire } from 'node:module';

interface InflightRequest {
  sentAt: number | null;
  requestTimeout: number;
  timeoutRequest(): void;
}

interface RequestQueueInternals {
  pending: unknown[];
  inflight: Map<number, InflightRequest>;
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  enforceRequestTimeout: boolean;
  requestTimeoutIntervalId: ReturnType<typeof setTimeout> | undefined;
  isConnected(): boolean;
  scheduleCheckPendingRequests(): void;
  scheduleRequestTimeoutCheck(): void;
  sendSocketRequest(request: unknown): void;
  destroy(): void;
}

/** The patch's own state on a queue: whether timeouts are enforced (from connect to destroy), and when the timer fires. */
interface TimeoutState {
  [TIMEOUTS_ON]?: boolean;
  [TIMEOUT_AT]?: number;
}
const TIMEOUTS_ON = Symbol('countinghouse.kafkajs.timeoutsOn');
const TIMEOUT_AT = Symbol('countinghouse.kafkajs.timeoutAt');

const PATCHED = Symbol.for('countinghouse.kafkajs.requestQueue.noIdleLoop');

/** kafkajs' RequestQueue class (the one its connections use: same module, kafkajs stays in node_modules). */
export const KafkaRequestQueue: {
  prototype: RequestQueueInternals;
  new (o: Record<string, unknown>): RequestQueueInternals & { checkPendingRequests(): void };
} = createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js');

const proto: RequestQueueInternals & TimeoutState & { [PATCHED]?: true } = KafkaRequestQueue.prototype;
const PATCHED_METHODS = ['scheduleCheckPendingRequests', 'scheduleRequestTimeoutCheck', 'sendSocketRequest', 'destroy'] as const;
if (PATCHED_METHODS.some((m) => typeof proto[m] !== 'function'))
  throw new Error('kafkajs: RequestQueue has changed (kafkajs upgraded?): review kit/src/kafkajs-request-queue.ts');
if (!proto[PATCHED]) {
  const original = proto.scheduleCheckPendingRequests;
  proto.scheduleCheckPendingRequests = function (this: RequestQueueInternals) {
    // nothing waiting and no throttle to wait out: no check to schedule (kafkajs would loop every 1 ms)
    if (!this.throttleCheckTimeoutId && this.pending.length === 0 && this.throttledUntil <= Date.now()) return;
    original.call(this);
  };

  // The second idle cost (issue 35): from connect to close, every connection ran
  // `setInterval(check, min(requestTimeout, 100))` to time its requests out, so each broker connection
  // woke its process ten times a second with nothing in flight, or with one long-poll fetch that
  // will not time out for 30 s and more (about 30 wakeups a second per idle service). Instead, one timer
  // armed for the earliest deadline of the requests in flight (sentAt + requestTimeout), none while
  // nothing is: a request still times out at its deadline (to the millisecond, not within 100 ms).
  const arm = (q: RequestQueueInternals & TimeoutState) => {
    if (!q[TIMEOUTS_ON]) return;
    let earliest = Infinity;
    for (const r of q.inflight.values()) if (r.sentAt !== null) earliest = Math.min(earliest, r.sentAt + r.requestTimeout);
    if (earliest === Infinity || (q[TIMEOUT_AT] ?? Infinity) <= earliest) return;
    clearTimeout(q.requestTimeoutIntervalId);
    q[TIMEOUT_AT] = earliest;
    // (+1: a request is timed out only once more than its requestTimeout has passed, as kafkajs checks)
    q.requestTimeoutIntervalId = setTimeout(() => fire(q), Math.max(0, earliest - Date.now()) + 1);
  };
  const fire = (q: RequestQueueInternals & TimeoutState) => {
    q[TIMEOUT_AT] = undefined;
    q.requestTimeoutIntervalId = undefined;
    const now = Date.now();
    for (const r of [...q.inflight.values()]) if (r.sentAt !== null && now - r.sentAt > r.requestTimeout) r.timeoutRequest();
    if (!q.isConnected()) return q.destroy();
    arm(q);
  };
  proto.scheduleRequestTimeoutCheck = function (this: RequestQueueInternals & TimeoutState) {
    if (!this.enforceRequestTimeout) return;
    this.destroy();
    this[TIMEOUTS_ON] = true;
    arm(this);
  };
  const send = proto.sendSocketRequest;
  proto.sendSocketRequest = function (this: RequestQueueInternals & TimeoutState, request: unknown) {
    send.call(this, request);
    arm(this);
  };
  const destroy = proto.destroy;
  proto.destroy = function (this: RequestQueueInternals & TimeoutState) {
    destroy.call(this); // clears requestTimeoutIntervalId (clearInterval clears a timeout as well)
    this[TIMEOUTS_ON] = false;
    this[TIMEOUT_AT] = undefined;
  };
  proto[PATCHED] = true;
}
