import { configDefaults, defineConfig } from 'vitest/config';
import { BROWSER_DISTRIBUTED_FILES, E2EOrder } from './tests/e2e/distributed-order.js';
import { BROWSER_WORKERS, LANE_GROUP_WORKERS } from './tests/workers.js';

// One run, seven projects: fast server tests against real PostgreSQL, the API's contract run (schemathesis),
// the frontend's component tests,
// the distributed tests (Kafka, Redis, MinIO, separate processes), the whole distributed product under
// faults, the browser tests (Chromium) against the all-in-one server, and the browser tests that matter
// most for a user a second time against the distributed product (issue 19).
//
// Four groups, one after the other (issue 27, item 5; docs/perf/tests.md, sessions 17 and 21; decisions
// 685-688), with TEST_WORKERS (tests/workers.ts: two by default) for the files that keep the cores busy:
// - server and frontend, three files at once (LANE_GROUP_WORKERS: one more than TEST_WORKERS; they wait on
//   PostgreSQL part of the time: 172 s against 214 s with two and 195 s with four, decision 690);
// - the browser files two at once (BROWSER_WORKERS), each with its own server, database and Chromium, beside
//   nothing else (beside the CPU-bound server and distributed files they missed short-lived toasts:
//   decision 683);
// - the distributed files (one at a time: the Kafka lane) beside the API's contract run and the whole product
//   under faults (its own Kafka broker; it mostly waits for its faults), on LANE_GROUP_WORKERS, filling the
//   core the Kafka lane leaves idle; browser-distributed's product starts meanwhile (warm-product.ts);
// - browser-distributed (one file at a time in its fixed order: its lane, on that product), on
//   LANE_GROUP_WORKERS (decision 687: beside the distributed files it failed under load).
// Files that must not run together take a lane (tests/lanes.ts, tests/one-at-a-time.ts); within a group the
// order keeps the workers busy (E2EOrder).
// The browser projects' expect.poll: its own default is one second, which a loaded machine outlasts (a
// dropdown's closing motion was seen to take longer beside another browser file); Playwright's own waits
// are 30 s.
const BROWSER_EXPECT = { poll: { timeout: 15_000 } };

/** The API's contract run (schemathesis): the api-contract project's one file. */
const API_CONTRACT_FILE = 'gateway/test/schemathesis.test.ts';

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
          include: ['proto/**/*.test.ts', 'services/*/test/**/*.test.ts', 'gateway/test/**/*.test.ts', 'tests/*.test.ts'],
          // (the API's contract run is a project of its own, in the distributed files' group: api-contract)
          exclude: [...configDefaults.exclude, API_CONTRACT_FILE],
          globalSetup: ['./tests/global-setup.ts'],
          // (one server file takes the Kafka lane: tests/lanes.ts)
          setupFiles: ['./tests/one-at-a-time.ts'],
          // (the first group's: three files at once, decision 690)
          maxWorkers: LANE_GROUP_WORKERS,
          testTimeout: 20_000,
          hookTimeout: 30_000,
          // Files share one module cache per worker (issue 27): the product is imported once, not once
          // per file (each file spent about 3 s importing it; the project ran in about half the time,
          // docs/perf/tests.md). Safe because no server test mocks a module, stubs a global or changes
          // process.env, and every file builds its own database, app and kit.
          isolate: false,
        },
      },
      {
        // The frontend's own config (frontend/vite.config.ts: jsdom, its set-up, its files), with the first
        // group's workers: vitest refuses a group whose projects differ (tests/workers.ts).
        extends: './frontend/vite.config.ts',
        test: { root: './frontend', maxWorkers: LANE_GROUP_WORKERS },
      },
      {
        test: {
          name: 'distributed',
          environment: 'node',
          include: ['tests/distributed/**/*.test.ts'],
          // (the whole product under faults is a project of its own: it starts a Kafka broker of its own)
          exclude: ['tests/distributed/product.test.ts'],
          // (and its processes compiled: tests/processes.ts nodeArgs)
          globalSetup: ['./tests/global-setup.ts', './tests/distributed/global-setup.ts'],
          // (browser-distributed's product started meanwhile, for the group after, before a file waits for its lane:
          // tests/distributed/warm-product.ts; then one file at a time: the Kafka lane)
          setupFiles: ['./tests/distributed/warm-product.ts', './tests/one-at-a-time.ts'],
          // (its lane, with workers to spare that take the next files meanwhile: tests/workers.ts)
          maxWorkers: LANE_GROUP_WORKERS,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // (after the browser files; browser-distributed after it: decision 687)
          sequence: { groupOrder: 2 },
        },
      },
      {
        // Schemathesis against the all-in-one server's OpenAPI document (gateway/test/schemathesis.test.ts): a
        // server file, but two minutes of one Python process and the server it calls, waiting on nothing
        // but the CPU. Beside the distributed files, which leave about half of the two cores idle, not in
        // the first group, whose server and frontend files keep both busy (docs/perf/tests.md, session 21).
        test: {
          name: 'api-contract',
          environment: 'node',
          include: [API_CONTRACT_FILE],
          globalSetup: ['./tests/global-setup.ts'],
          setupFiles: ['./tests/one-at-a-time.ts'],
          // (its group's: vitest refuses a group whose projects differ)
          maxWorkers: LANE_GROUP_WORKERS,
          testTimeout: 20_000,
          hookTimeout: 30_000,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: 'distributed-product',
          environment: 'node',
          include: ['tests/distributed/product.test.ts'],
          globalSetup: ['./tests/global-setup.ts'],
          // (its own Kafka broker: it may run beside any file; its lane keeps it to one at a time)
          setupFiles: ['./tests/one-at-a-time.ts'],
          maxWorkers: LANE_GROUP_WORKERS,
          testTimeout: 180_000,
          hookTimeout: 400_000,
          // (beside the distributed files and the API's contract run, not in the first group: there it held
          // one of the three workers the server and frontend files keep busy, and ended that group about
          // 35 s after them, alone; decision 690)
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: 'browser',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['./tests/global-setup.ts'],
          // (each file its own server, database and Chromium: two may run at once; no lane, tests/lanes.ts)
          setupFiles: ['./tests/one-at-a-time.ts'],
          maxWorkers: BROWSER_WORKERS,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect: BROWSER_EXPECT,
          // (after server and frontend, beside nothing else)
          sequence: { groupOrder: 1 },
          // One module cache per worker, as the server project (issue 27): the product, Playwright and the
          // compiled route schemas are loaded once, not once per file (about 2 s a file). Safe for the same
          // reasons: no browser test mocks a module, stubs a global or changes process.env, and each file
          // starts its own server, database and Chromium and closes them.
          isolate: false,
        },
      },
      {
        // The browser tests that matter most for a user, again, against the distributed product (every
        // service its own process, crm and documents twice), started once for all of them through its
        // global setup (tests/e2e/distributed-global-setup.ts) while the group before runs.
        test: {
          name: 'browser-distributed',
          environment: 'node',
          // (in this order: E2EOrder)
          include: BROWSER_DISTRIBUTED_FILES,
          globalSetup: ['./tests/global-setup.ts', './tests/e2e/distributed-global-setup.ts'],
          // (one file at a time, in that order, on the product they share: its lane, tests/lanes.ts)
          setupFiles: ['./tests/one-at-a-time.ts'],
          maxWorkers: LANE_GROUP_WORKERS,
          testTimeout: 90_000,
          hookTimeout: 180_000,
          expect: BROWSER_EXPECT,
          // (beside the distributed files, which wait on their processes as it waits on its browser: its
          // product is on the shared Kafka, which no distributed file stops any more, kafka-outbox's outage
          // being on a broker of its own; beside the CPU-bound server files its tests timed out,
          // docs/perf/tests.md, session 15)
          // (last, alone: beside the distributed files its settings test failed once in a fresh clone (686),
          // and after settings-gateways' topics were made its own its documents test did, three tests, under
          // a load average of 9: decision 687)
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
