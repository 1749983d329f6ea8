import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserContext, Page, Request } from 'playwright-core';

/** A context's requests in flight (each with when it started), and when that last changed. */
interface Traffic {
  inFlight: Map<Request, number>;
  lastChange: number;
}

const traffic = new WeakMap<BrowserContext, Traffic>();

/** A request in flight longer than this is not waited for (a long poll, a stream): as 'networkidle' would hang. */
const LONGEST_REQUEST_MS = 5_000;

/** Follow a context's requests from now on (newContext does it for every context of the browser tests). */
export function trackRequests(context: BrowserContext): void {
  if (traffic.has(context)) return;
  const t: Traffic = { inFlight: new Map(), lastChange: Date.now() };
  traffic.set(context, t);
  context.on('request', (r) => {
    if (r.resourceType() === 'eventsource' || r.resourceType() === 'websocket') return;
    t.inFlight.set(r, Date.now());
    t.lastChange = Date.now();
  });
  const end = (r: Request) => {
    if (t.inFlight.delete(r)) t.lastChange = Date.now();
  };
  context.on('requestfinished', end);
  context.on('requestfailed', end);
}

/**
 * Resolve once none of the page's context's requests has been in flight for `quietMs`: Playwright's
 * 'networkidle' with 150 ms rather than its fixed 500 ms (a page's data requests follow each other within
 * a few milliseconds of a render). At most `timeoutMs`, then it goes on, as the wait it replaces did. A
 * context not followed (trackRequests) falls back to 'networkidle'.
 */
export async function networkQuiet(page: Page, quietMs = 150, timeoutMs = 15_000): Promise<void> {
  const t = traffic.get(page.context());
  if (!t) {
    await page.waitForLoadState('networkidle', { timeout: timeoutMs }).catch(() => {});
    return;
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const now = Date.now();
    for (const [r, started] of t.inFlight) if (now - started > LONGEST_REQUEST_MS) t.inFlight.delete(r);
    if (t.inFlight.size === 0 && now - t.lastChange >= quietMs) return;
    await sleep(25);
  }
}
