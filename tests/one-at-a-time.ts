import { relative } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { finishTurn, laneOf, takeLane } from './lanes.js';
import { repoRoot } from './processes.js';

// A set-up file (vitest.config.ts): a file of a lane (tests/lanes.ts) runs only when no other file of
// its lane runs, as `fileParallelism: false` made it before the lanes ran beside the other projects.
// The lock is a PostgreSQL advisory lock on the test server, held by a connection of this file's own:
// taken before the file's own set-up, given back after its own tear-down (hooks run as a stack), and
// given back by PostgreSQL if the worker dies. A file of an ordered lane also waits for the files handed out
// before it to finish (tests/lanes.ts takeLane). Waiting has no limit of its own: the file before holds
// the lock only as long as its own tests and hooks may take.

let held: { holder: pg.Client; lane: string; file: string } | null = null;

beforeAll(
  // (vitest reads the first parameter for fixtures: it must be a destructuring pattern; none is used)
  // eslint-disable-next-line no-empty-pattern
  async ({}, suite) => {
    const file = suite.file;
    const path = relative(repoRoot, file.filepath);
    const lane = laneOf(file.projectName ?? '', path);
    if (lane === null) return;
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is not set: run the tests with `npm test`, which starts a real PostgreSQL.');
    const t0 = Date.now();
    // (and, in an ordered lane, its turn: tests/lanes.ts)
    held = { holder: await takeLane(lane, url, { file: path }), lane, file: path };
    // (the timing report prints how long the file waited for its lane: tests/timing-reporter.ts)
    (file.meta as { laneWaitMs?: number }).laneWaitMs = Date.now() - t0;
  },
  // (as long as a whole lane may take)
  60 * 60_000,
);

afterAll(async () => {
  const h = held;
  held = null;
  if (!h) return;
  // (the next file of an ordered lane may start: this one has finished)
  finishTurn(h.lane, h.file);
  // (closing the session gives the lock back)
  await h.holder.end();
});
