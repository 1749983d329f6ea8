import { describe, expect, it } from 'vitest';
import { RESTART_BACKOFF, restartDelay } from '../../scripts/distributed.js';

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
