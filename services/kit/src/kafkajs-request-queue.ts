// kafkajs 2.2.4 (its last release) ends every check of a connection's pending requests by scheduling the
// next one, also when nothing is pending and nothing throttled: `setTimeout(check, -1 - Date.now())`.
// Node clamps that delay to 1 ms, so every broker connection of every process checked an empty queue
// about a thousand times a second, forever (kafkajs issue 1704); Node.js 24 also warns about it at each
// start ("TimeoutNegativeWarning: -1795710889932 is a negative number", kafkajs issue 1751). Nothing is
// lost by not scheduling then: a request pushed later is sent at once or schedules its own check, and an
// answer that frees a slot checks the queue again. This is the fix proposed upstream (kafkajs PR 1768's
// review) applied to kafkajs' own class, once, before the kit creates any Kafka client (decision 244).
import { createRequire } from 'node:module';

interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  scheduleCheckPendingRequests(): void;
}

const PATCHED = Symbol.for('countinghouse.kafkajs.requestQueue.noIdleLoop');

/** kafkajs' RequestQueue class (the one its connections use: same module, kafkajs stays in node_modules). */
export const KafkaRequestQueue = createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js') as {
  prototype: RequestQueueInternals;
  new (o: Record<string, unknown>): RequestQueueInternals & { checkPendingRequests(): void };
};

const proto = KafkaRequestQueue.prototype as RequestQueueInternals & { [PATCHED]?: true };
if (typeof proto.scheduleCheckPendingRequests !== 'function')
  throw new Error(
    'kafkajs: RequestQueue.scheduleCheckPendingRequests is gone (kafkajs upgraded?): review kit/src/kafkajs-request-queue.ts',
  );
if (!proto[PATCHED]) {
  const original = proto.scheduleCheckPendingRequests;
  proto.scheduleCheckPendingRequests = function (this: RequestQueueInternals) {
    // nothing waiting and no throttle to wait out: no check to schedule (kafkajs would loop every 1 ms)
    if (!this.throttleCheckTimeoutId && this.pending.length === 0 && this.throttledUntil <= Date.now()) return;
    original.call(this);
  };
  proto[PATCHED] = true;
}
