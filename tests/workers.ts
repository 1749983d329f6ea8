import { availableParallelism } from 'node:os';

/**
 * The workers of the test run (vitest.config.ts; frontend/vite.config.ts computes the same, and must:
 * vitest refuses a group whose projects differ): TEST_WORKERS, else one more than the cores (3 on CI's
 * 2). The CPU-bound files (server, frontend, browser) keep a core each busy, and the files that mostly
 * wait (distributed, the whole product, browser-distributed) run one at a time on the extra worker
 * beside them (tests/lanes.ts; measured in docs/perf/tests.md, decision 683). TEST_WORKERS=1 runs one
 * file at a time.
 */
export const TEST_WORKERS = testWorkers(process.env.TEST_WORKERS, availableParallelism());

export function testWorkers(setting: string | undefined, cores: number): number {
  const n = Number(setting);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, cores + 1) : cores + 1;
}
