import { defineConfig } from 'vitest/config';

// One run, five projects: fast server tests against real PostgreSQL, the frontend's component tests,
// the distributed tests (Kafka, Redis, MinIO, separate processes), the browser tests (Chromium) against
// the all-in-one server, and the browser tests that matter again against the distributed product.
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
          globalSetup: ['./tests/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
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
        test: {
          name: 'browser-distributed',
          environment: 'node',
          // the same tests, against every service as its own process (crm and documents twice): tests/e2e/server.ts
          include: [
            'tests/e2e/admin-login.test.ts',
            'tests/e2e/staff.test.ts',
            'tests/e2e/journey.test.ts',
            'tests/e2e/documents.test.ts',
            'tests/e2e/media.test.ts',
            'tests/e2e/settings.test.ts',
            'tests/e2e/notifications.test.ts',
          ],
          env: { E2E_DISTRIBUTED: '1' },
          globalSetup: ['./tests/global-setup.ts'],
          // a dozen processes on the same cores as the browser: each step is slower than all-in-one
          testTimeout: 180_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
