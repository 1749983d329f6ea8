import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralRange, freePort, RESTART_BACKOFF, restartDelay } from '../../scripts/distributed.js';
import { WORKER_SLICES, workerSlice } from '../../scripts/distributed/ports.js';

// The launcher's restart rule (scripts/distributed.ts): 1 s, 2 s, 4 s, … capped at 30 s, back to 1 s
// after a process ran 60 s. (The restart itself, a service killed with SIGKILL under the launcher and
// back ready, is in tests/distributed/product.test.ts.)

describe('restartDelay', () => {
  it.each([
    // attempt, ran for (ms), wait (ms), next attempt
    [0, 500, 1000, 1],
    [1, 2_000, 2000, 2],
    [2, 3_000, 4000, 3],
    [3, 1_000, 8000, 4],
    [4, 1_000, 16_000, 5],
    [5, 1_000, 30_000, 6],
    [12, 59_999, 30_000, 13],
    // ran a minute: a new fault, from the start again
    [12, 60_000, 1000, 1],
    [3, 3_600_000, 1000, 1],
  ])('attempt %i after running %i ms: waits %i ms', (attempt, ranMs, delayMs, nextAttempt) => {
    expect(restartDelay(attempt, ranMs)).toEqual({ delayMs, nextAttempt });
  });

  it('never waits more than the cap, however many restarts', () => {
    for (let a = 0; a < 100; a++) expect(restartDelay(a, 0).delayMs).toBeLessThanOrEqual(RESTART_BACKOFF.maxMs);
  });
});

describe('freePort: the port a process is restarted on', () => {
  it('lies below the ephemeral range (an outgoing connection cannot take it while its process restarts) and can be listened on', async () => {
    const [low] = ephemeralRange();
    expect(low).toBeGreaterThan(2000);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeLessThan(low);
      expect(port).toBeGreaterThanOrEqual(Math.min(20_000, low - 2000));
    }
    const srv = createServer();
    await new Promise<void>((ok, fail) => srv.once('error', fail).listen(ports[0], '127.0.0.1', () => ok()));
    await new Promise((r) => srv.close(r));
  });

  it('never hands out the same port twice in one process', async () => {
    const ports = await Promise.all(Array.from({ length: 200 }, () => freePort()));
    expect(new Set(ports).size).toBe(ports.length);
  });

  it.each([
    [{}, 20_000, 32_768],
    [{ VITEST: 'true' }, 20_000, 22_553],
    [{ VITEST: 'true', VITEST_POOL_ID: '1' }, 22_553, 25_106],
    [{ VITEST: 'true', VITEST_POOL_ID: '3' }, 27_659, 30_212],
    [{ VITEST: 'true', VITEST_POOL_ID: '4' }, 30_212, 32_765],
    [{ VITEST: 'true', VITEST_POOL_ID: String(WORKER_SLICES) }, 20_000, 22_553],
    [{ VITEST: 'true', VITEST_POOL_ID: 'x' }, 20_000, 22_553],
  ])('under %o chooses from %i below %i (each vitest worker a slice of its own)', (env, from, below) => {
    expect(workerSlice({ from: 20_000, below: 32_768 }, env)).toEqual({ from, below });
  });

  it('skips ports already taken', async () => {
    // a range of three ports, two of them taken: always the third
    const from = await freePort();
    const taken = [createServer(), createServer()];
    const listening = await Promise.all(
      taken.map((srv, i) => new Promise<boolean>((ok) => srv.once('error', () => ok(false)).listen(from + i, '127.0.0.1', () => ok(true)))),
    );
    try {
      if (listening.every(Boolean) && (await freePort({ from: from + 2, below: from + 3 })) === from + 2)
        for (let i = 0; i < 10; i++) expect(await freePort({ from, below: from + 3 })).toBe(from + 2);
      else expect.unreachable(`ports ${from}-${from + 2} were not free to test with`);
    } finally {
      await Promise.all(taken.map((srv) => new Promise((r) => srv.close(r))));
    }
  });
});
