import { defineConfig } from 'vitest/config';
import { BROWSER_DISTRIBUTED_FILES, E2EOrder } from './tests/e2e/distributed-order.js';

// One run, six projects: fast server tests against real PostgreSQL, the frontend's component tests,
// the distributed tests (Kafka, Redis, MinIO, separate processes), the whole distributed product under
// faults, the browser tests (Chromium) against the all-in-one server, and the browser tests that matter
// most for a user a second time against the distributed product (issue 19).
export default defineConfig({
  test: {
    // (the timing report before the summary: CI reads the summary's closing line)
    reporters: ['default', './tests/timing-reporter.ts', './tests/summary-reporter.ts'],
    sequence: { sequencer: E2EOrder },
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['proto/**/*.test.ts', 'services/*/test/**/*.test.ts', 'gateway/test/**/*.test.ts'],
          globalSetup: ['./tests/global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
          // Files share one module cache per worker (issue 27): the product is imported once, not once
          // per file (each file spent about 3 s importing it; the project ran in about half the time,
          // docs/perf/tests.md). Safe because no server test mocks a module, stubs a global or changes
          // process.env, and every file builds its own database, app and kit.
          isolate: false,
        },
      },
      'frontend',
      {
        test: {
          name: 'distributed',
          environment: 'node',
          include: ['tests/distributed/**/*.test.ts'],
          // (the whole product under faults is a project of its own: it starts a Kafka broker of its own)
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
      {
        // The browser tests that matter most for a user, again, against the distributed product (every
        // service its own process, crm and documents twice), started once for all of them by its
        // global setup (tests/e2e/distributed-global-setup.ts).
        test: {
          name: 'browser-distributed',
          environment: 'node',
          // (in this order: E2EOrder)
          include: BROWSER_DISTRIBUTED_FILES,
          globalSetup: ['./tests/global-setup.ts', './tests/e2e/distributed-global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
