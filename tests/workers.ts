import { availableParallelism } from 'node:os';

/**
 * The workers of the test run (vitest.config.ts, which gives the frontend project the first group's:
 * vitest refuses a group whose projects differ): TEST_WORKERS (at most one more than the cores), else two
 * (one on a single core), for every group but the browser files' (BROWSER_WORKERS). Decision 684
 * (docs/perf/tests.md, session 16): each project run alone on two workers passed and took about 40 % less
 * time; the timeouts of decision 683 came when browser files ran beside the CPU-bound server and distributed
 * files, so the projects now run in phases (vitest.config.ts's groups).
 */
export const TEST_WORKERS = testWorkers(process.env.TEST_WORKERS, availableParallelism());

/**
 * The workers of a group with lanes that mostly wait (vitest.config.ts): one more than TEST_WORKERS, one file
 * at a time staying one (TEST_WORKERS=1). In the first group the server and frontend files, which wait on
 * PostgreSQL part of the time, run three at once (172 s on 2 cores, against 214 s with two and 195 s with
 * four: decision 690); the distributed files' lane, beside the whole product under faults (which mostly waits
 * for its faults: Kafka stopped for 30 s, replicas killed) and the API's contract run, and then
 * browser-distributed's, each run with workers to spare, which take the next file while the lane is busy
 * and start it the moment the lane frees (when the two lanes ran side by side on two workers, a worker that
 * took a busy lane's file left the other lane idle: 36 s in one run).
 * Decisions 685, 687 and 690 (docs/perf/tests.md, sessions 17, 20 and 22).
 */
export const LANE_GROUP_WORKERS = laneGroupWorkers(TEST_WORKERS);

export function laneGroupWorkers(testWorkers: number): number {
  return testWorkers > 1 ? testWorkers + 1 : 1;
}

/**
 * The browser files' workers (vitest.config.ts's second group, browser files only): TEST_BROWSER_WORKERS (at
 * most one more than the cores), else as many as TEST_WORKERS. Session 16 ran them one at a time after three
 * fresh-clone runs in which a browser test failed beside another (two causes fixed then; media's title not
 * seen in 30 s not understood); session 17 found a fourth, vitest's one-second default for expect.poll, which
 * a loaded machine outlasted (the browser projects now poll for 15 s: vitest.config.ts), and two fresh-clone
 * runs since passed every browser test. Decision 685 (docs/perf/tests.md, session 17).
 */
export const BROWSER_WORKERS = browserWorkers(process.env.TEST_BROWSER_WORKERS, availableParallelism(), TEST_WORKERS);

export function browserWorkers(setting: string | undefined, cores: number, testWorkers: number): number {
  return workersSetting(setting, cores) ?? testWorkers;
}

export function testWorkers(setting: string | undefined, cores: number): number {
  return workersSetting(setting, cores) ?? Math.max(1, Math.min(2, cores));
}

/** A workers setting: a whole number from 1, at most one more than the cores; null when unset or not one. */
function workersSetting(setting: string | undefined, cores: number): number | null {
  const n = Number(setting);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, cores + 1) : null;
}
