// Waiting for a process to be ready, and the cancellation of a start under way (Ctrl-C).
import type { Child } from './processes.js';

/** startDistributed's rejection when its signal was aborted: everything it had started is stopped. */
export class StartCancelled extends Error {
  constructor() {
    super('the start was cancelled: everything it had started is stopped');
    this.name = 'StartCancelled';
  }
}

export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new StartCancelled();
}

export async function waitReady(c: Child, url: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    throwIfCancelled(signal);
    if (c.child && (c.child.exitCode !== null || c.child.signalCode !== null)) {
      throw new Error(
        `${c.info.name} exited (${c.child.exitCode ?? c.child.signalCode}) before it was ready:\n${c.out.trim().split('\n').slice(-15).join('\n')}`,
      );
    }
    const ok = await fetch(url, { signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(2000)]) : AbortSignal.timeout(2000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${c.info.name} not ready after ${timeoutMs / 1000} s (${url}):\n${c.out.trim().split('\n').slice(-15).join('\n')}`);
}
