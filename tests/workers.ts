import { availableParallelism } from 'node:os';

/**
 * The workers of the test run (vitest.config.ts; frontend/vite.config.ts computes the same, and must:
 * vitest refuses a group whose projects differ): TEST_WORKERS (at most one more than the cores), else two
 * (one on a single core). Decision 684 (docs/perf/tests.md, session 16): each project run alone on two
 * workers passed and took about 40 % less time; the timeouts of decision 683 came when browser files ran
 * beside the CPU-bound server and distributed files, so the projects now run in phases (vitest.config.ts's
 * groups), and a browser file only ever runs beside another browser file.
 */
export const TEST_WORKERS = testWorkers(process.env.TEST_WORKERS, availableParallelism());

export function testWorkers(setting: string | undefined, cores: number): number {
  const n = Number(setting);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, cores + 1) : Math.max(1, Math.min(2, cores));
}
