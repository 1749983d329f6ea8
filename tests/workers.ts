import { availableParallelism } from 'node:os';

/**
 * The workers of the test run (vitest.config.ts; frontend/vite.config.ts computes the same, and must:
 * vitest refuses a group whose projects differ): TEST_WORKERS (at most one more than the cores), else as
 * many as the cores (2 on CI). While CPU-bound files (server, frontend, browser) are left, one worker
 * runs them and the other the files that mostly wait (distributed, the whole product, browser-distributed),
 * one at a time (tests/lanes.ts); then both run CPU-bound files. Measured in docs/perf/tests.md (decision
 * 683): a third worker kept both cores saturated and two tests timed out. TEST_WORKERS=1 runs one file
 * at a time.
 */
export const TEST_WORKERS = testWorkers(process.env.TEST_WORKERS, availableParallelism());

export function testWorkers(setting: string | undefined, cores: number): number {
  const n = Number(setting);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, cores + 1) : cores;
}
