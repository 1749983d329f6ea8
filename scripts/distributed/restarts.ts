/**
 * The launcher's restart rule for a process that exits on its own once the product has started: after
 * 1 s, then 2 s, 4 s, … at most 30 s; a process that had run 60 s or more starts over at 1 s (it was
 * well, so this is a new fault, not the same one again).
 */
export const RESTART_BACKOFF = { firstMs: 1000, maxMs: 30_000, healthyAfterMs: 60_000 };

/** The wait before restart number `attempt` (0-based) and the next attempt number. */
export function restartDelay(attempt: number, ranMs: number): { delayMs: number; nextAttempt: number } {
  const a = ranMs >= RESTART_BACKOFF.healthyAfterMs ? 0 : attempt;
  return { delayMs: Math.min(RESTART_BACKOFF.firstMs * 2 ** a, RESTART_BACKOFF.maxMs), nextAttempt: a + 1 };
}
