import { availableParallelism } from 'node:os';

/**
 * The workers of the test run (vitest.config.ts; frontend/vite.config.ts computes the same, and must:
 * vitest refuses a group whose projects differ): TEST_WORKERS (at most one more than the cores), else one.
 * Two workers on CI's 2 cores were measured again (docs/perf/tests.md, session 15; decision 683): run alone
 * a project takes about 40 % less time, but in the fresh-clone run two browser files side by side missed
 * short-lived toasts and three tests timed out, so one worker stays the default. TEST_WORKERS=2 runs the
 * lanes (tests/lanes.ts): two CPU-bound files at once, the waiting ones beside them.
 */
export const TEST_WORKERS = testWorkers(process.env.TEST_WORKERS, availableParallelism());

export function testWorkers(setting: string | undefined, cores: number): number {
  const n = Number(setting);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, cores + 1) : 1;
}
