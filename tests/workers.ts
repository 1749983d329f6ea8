import { availableParallelism } from 'node:os';

/**
 * The workers of vitest's first group (vitest.config.ts; frontend/vite.config.ts computes the same, and
 * must: vitest refuses a group whose projects differ): TEST_WORKERS, else one less than the cores as
 * vitest's own default but at least 2, so that on CI's 2 cores a waiting file runs beside a CPU-bound
 * one (issue 27, item 5; docs/perf/tests.md).
 */
export const TEST_WORKERS = Math.max(1, Number(process.env.TEST_WORKERS) || Math.max(2, availableParallelism() - 1));
