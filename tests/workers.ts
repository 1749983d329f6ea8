import { availableParallelism } from 'node:os';

/**
 * The workers of vitest's first group (vitest.config.ts; frontend/vite.config.ts computes the same, and
 * must: vitest refuses a group whose projects differ): TEST_WORKERS, else one. Two workers (a waiting file
 * beside a CPU-bound one, the lanes of issue 27 item 5) measured no faster on CI's 2 cores (2,405 s against
 * about 2,300 s one at a time) and browser files flaked beside the CPU-bound ones (decision 603); set
 * TEST_WORKERS=2 to run the lanes. (availableParallelism: the most that makes sense on this machine.)
 */
export const TEST_WORKERS = Math.max(1, Math.min(availableParallelism(), Number(process.env.TEST_WORKERS) || 1));
