import { availableParallelism } from 'node:os';

/**
 * The workers of the test run (vitest.config.ts; frontend/vite.config.ts computes the same, and must:
 * vitest refuses a group whose projects differ): TEST_WORKERS (at most one more than the cores), else two
 * (one on a single core), for every group but the browser files' (BROWSER_WORKERS). Decision 684
 * (docs/perf/tests.md, session 16): each project run alone on two workers passed and took about 40 % less
 * time; the timeouts of decision 683 came when browser files ran beside the CPU-bound server and distributed
 * files, so the projects now run in phases (vitest.config.ts's groups).
 */
export const TEST_WORKERS = testWorkers(process.env.TEST_WORKERS, availableParallelism());

/**
 * The browser files' workers (vitest.config.ts's second group, browser files only): TEST_BROWSER_WORKERS (at
 * most one more than the cores), else one. Two at a time took about 420 s against about 700 s, but in three
 * fresh-clone runs two browser tests failed beside each other under the load (a section's select choice not
 * taken, a generated script's title not seen in 30 s; docs/perf/tests.md, session 16), and a red CI lands
 * nothing.
 */
export const BROWSER_WORKERS = browserWorkers(process.env.TEST_BROWSER_WORKERS, availableParallelism());

export function browserWorkers(setting: string | undefined, cores: number): number {
  return workersSetting(setting, cores) ?? 1;
}

export function testWorkers(setting: string | undefined, cores: number): number {
  return workersSetting(setting, cores) ?? Math.max(1, Math.min(2, cores));
}

/** A workers setting: a whole number from 1, at most one more than the cores; null when unset or not one. */
function workersSetting(setting: string | undefined, cores: number): number | null {
  const n = Number(setting);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, cores + 1) : null;
}
