/**
 * The workers of vitest's first group (vitest.config.ts, frontend/vite.config.ts): 2, set for the 2
 * cores CI has (issue 27, item 5; docs/perf/tests.md), or TEST_WORKERS. Every project of a group must
 * have the same number (vitest refuses a group whose projects differ).
 */
export const TEST_WORKERS = Math.max(1, Number(process.env.TEST_WORKERS ?? 2) || 2);
