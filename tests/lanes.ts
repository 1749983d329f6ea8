import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { TestSpecification } from 'vitest/node';

/**
 * Lanes (issue 27, item 5; docs/perf/tests.md). The run's groups (vitest.config.ts, tests/workers.ts):
 * server and frontend files three at once, then the browser files two at once, then the distributed files
 * beside the whole product under faults (each its lane) and the API's contract run, then browser-distributed
 * (its lane; beside the distributed files it failed under load: decision 687).
 *
 * A lane is a set of files that must run one at a time: tests/one-at-a-time.ts holds a lock named after
 * the lane for the whole file (a PostgreSQL advisory lock on the test server, released when the file ends
 * or its worker exits). The order below only decides how well the workers are used, never what may run
 * together: vitest hands the next file in this order to whichever worker is free, so the order is a
 * simulation of that with each file's expected time (laneOrder).
 */

/** The lane a file must take (null: it may run beside any other file). */
export function laneOf(project: string, file: string): string | null {
  // (the distributed files one at a time, as they have always run: each starts several processes of its
  // own, and side by side they have not been tried; kafka-outbox's outage is on a broker of its own since
  // session 17, so the one server file that checks the shared Kafka is reachable no longer needs the lane,
  // and keeps it only as the files it was written beside)
  if (project === 'distributed' || file.endsWith('services/kit/test/wait-dependencies.test.ts')) return 'kafka';
  if (project === 'distributed-product') return 'product';
  // (its files share one product, and each expects the ones before it to have run: ORDERED_LANES)
  if (project === 'browser-distributed') return 'browser-distributed';
  // A browser file starts its own server, database and Chromium: it may run beside any other file.
  return null;
}

/** Lanes whose files run in the order they are given (E2EOrder's), not longest first. */
const ORDERED_LANES = new Set(['browser-distributed']);

/**
 * Waits until no other file holds the lane, then holds it until the returned connection ends (or its
 * process dies: PostgreSQL ends the session and frees the lock).
 *
 * A file of an ordered lane (`turn`: its file, and the run's main process unless the worker's parent or
 * itself) also waits for its turn: until
 * every file handed out before it in its lane (writeTurns) has finished (finishTurn). The lock alone does not
 * keep the order: with a worker to spare, two files of the lane may wait for it at once, and the one whose
 * worker asks first (a fresh process starting faster) would take it. At most TURN_WAIT_MS, then it runs
 * anyway and says which files it did not see finish (one that failed to load never finishes).
 */
export async function takeLane(lane: string, databaseUrl: string, turn?: { file: string; runPid?: number }): Promise<pg.Client> {
  const holder = new pg.Client({ connectionString: databaseUrl, application_name: `test lane ${lane}` });
  // (a connection lost while held frees the lane early; it must not end the worker as an unhandled error)
  holder.on('error', () => {});
  await holder.connect();
  const key = `countinghouse test lane ${lane}`;
  const turns = turn ? readTurns(lane, turn.file, turn.runPid) : null;
  const giveUpAt = Date.now() + TURN_WAIT_MS;
  try {
    for (;;) {
      await holder.query('select pg_advisory_lock(hashtext($1))', [key]);
      const waitingFor = turns?.before.filter((f) => !turns.finished().has(f)) ?? [];
      if (waitingFor.length === 0) break;
      if (Date.now() >= giveUpAt) {
        console.warn(
          `${turn!.file}: the lane ${lane}'s earlier files did not finish in ${TURN_WAIT_MS / 1000} s; running anyway: ${waitingFor.join(', ')}`,
        );
        break;
      }
      // (not its turn: the lane back to the file before it, which may be waiting behind this one)
      await holder.query('select pg_advisory_unlock(hashtext($1))', [key]);
      await sleep(250);
    }
  } catch (err) {
    await holder.end().catch(() => {});
    throw err;
  }
  return holder;
}

/** How long a file of an ordered lane waits for the files before it to finish. */
export const TURN_WAIT_MS = 10 * 60_000;

/** Where a run's ordered lanes are written: by its main process (the workers' parent, or itself). */
function turnsPath(runPid: number): string {
  return join(tmpdir(), `countinghouse-test-turns-${runPid}.json`);
}

/** Each ordered lane's files (ORDERED_LANES), in the order given (the order they are handed out in). */
export function orderedLanes(order: Array<{ project: string; file: string }>): Record<string, string[]> {
  const lanes: Record<string, string[]> = {};
  for (const { project, file } of order) {
    const lane = laneOf(project, file);
    if (lane !== null && ORDERED_LANES.has(lane)) (lanes[lane] ??= []).push(file);
  }
  return lanes;
}

/**
 * The sequencer (E2EOrder, in vitest's main process): the ordered lanes' files in the order they are handed
 * out (orderedLanes), for takeLane. The files of runs that have ended are removed.
 */
export function writeTurns(lanes: Record<string, string[]>, runPid = process.pid): void {
  for (const name of readdirSync(tmpdir())) {
    const m = /^countinghouse-test-turns-(\d+)\.json(\.done)?$/.exec(name);
    if (m && Number(m[1]) !== runPid && !alive(Number(m[1]))) rmSync(join(tmpdir(), name), { force: true });
  }
  rmSync(`${turnsPath(runPid)}.done`, { force: true });
  writeFileSync(turnsPath(runPid), JSON.stringify(lanes));
}

/** one-at-a-time.ts, when a file of a lane has finished (its hooks and tests), before it frees the lane. */
export function finishTurn(lane: string, file: string, runPid?: number): void {
  const path = runTurnsPath(runPid);
  if (path) appendFileSync(`${path}.done`, `${JSON.stringify({ lane, file })}\n`);
}

/** The run's turns file: for runPid, else the worker's parent's (a forked worker) or its own (a thread). */
function runTurnsPath(runPid?: number): string | null {
  const candidates = runPid !== undefined ? [runPid] : [process.ppid, process.pid];
  return candidates.map(turnsPath).find((p) => existsSync(p)) ?? null;
}

/** The files of `lane` before `file` in this run, and which files of the lane have finished so far. */
function readTurns(lane: string, file: string, runPid?: number): { before: string[]; finished: () => Set<string> } | null {
  const path = runTurnsPath(runPid);
  if (!path) return null;
  const list = (JSON.parse(readFileSync(path, 'utf8')) as Record<string, string[]>)[lane] ?? [];
  const at = list.indexOf(file);
  if (at < 0) return null;
  return {
    before: list.slice(0, at),
    finished: () => {
      const done = new Set<string>();
      if (!existsSync(`${path}.done`)) return done;
      for (const line of readFileSync(`${path}.done`, 'utf8').split('\n')) {
        if (!line) continue;
        const d = JSON.parse(line) as { lane: string; file: string };
        if (d.lane === lane) done.add(d.file);
      }
      return done;
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A file's expected time when no earlier run says (seconds per file: the last CI run's averages). */
const DEFAULT_SECONDS: Record<string, number> = {
  server: 3.3,
  'api-contract': 111,
  frontend: 4.8,
  browser: 24,
  distributed: 12,
  'distributed-product': 220,
  'browser-distributed': 22,
};

/**
 * Expected seconds for a run with no earlier figures (a fresh clone, as CI's): the files far longer than
 * their project's average (without them the longest file of a group started last in vitest's order and
 * ended the group alone: schemathesis, 94 s with the other worker idle), and every file of the lanes that
 * run side by side in the last group, whose order decides whether a worker waits for a busy lane (wall
 * seconds less the lane's wait, two workers, session 17's working-copy run: docs/perf/tests.md).
 */
export const KNOWN_SECONDS: Record<string, number> = {
  'api-contract:gateway/test/schemathesis.test.ts': 111,
  'browser:tests/e2e/a11y-public.test.ts': 112,
  'browser:tests/e2e/a11y-admin.test.ts': 106,
  'browser:tests/e2e/workspace.test.ts': 48,
  'browser:tests/e2e/staff.test.ts': 44,
  'browser:tests/e2e/portal.test.ts': 40,
  'distributed-product:tests/distributed/product.test.ts': 234,
  'distributed:tests/distributed/jobs-all-in-one.test.ts': 41,
  'distributed:tests/distributed/kafka-outbox.test.ts': 36,
  'distributed:tests/distributed/leavers-kafka.test.ts': 22,
  'distributed:tests/distributed/revocations-replay.test.ts': 22,
  'distributed:tests/distributed/records-kafka.test.ts': 22,
  'distributed:tests/distributed/settings-gateways.test.ts': 20,
  'distributed:tests/distributed/kafka-sasl.test.ts': 15,
  'distributed:tests/distributed/start-cancel.test.ts': 11,
  'distributed:tests/distributed/notifications-kafka.test.ts': 10,
  'distributed:tests/distributed/integrations-bullmq.test.ts': 8,
  'distributed:tests/distributed/build-processes.test.ts': 5,
  'distributed:tests/distributed/bullmq.test.ts': 4,
  'distributed:tests/distributed/media-bullmq.test.ts': 3,
  'distributed:tests/distributed/kafka-large-events.test.ts': 2,
  'distributed:tests/distributed/launcher-restart.test.ts': 2,
  'browser-distributed:tests/e2e/staff.test.ts': 51,
  'browser-distributed:tests/e2e/documents.test.ts': 24,
  'browser-distributed:tests/e2e/journey.test.ts': 16,
  'browser-distributed:tests/e2e/admin-login.test.ts': 30,
  'browser-distributed:tests/e2e/media.test.ts': 9,
  'browser-distributed:tests/e2e/settings.test.ts': 19,
  'browser-distributed:tests/e2e/notifications.test.ts': 10,
  'browser-distributed:tests/e2e/requests.test.ts': 29,
  'browser-distributed:tests/e2e/timeline.test.ts': 14,
};

/** A file of no lane expected to take at least this long starts before the others, the longest first. */
export const LONG_SECONDS = 30;

interface Item {
  spec: TestSpecification;
  lane: string | null;
  seconds: number;
}

/**
 * The order for vitest's first group: list scheduling on `workers` workers, `cores` of which the CPU-bound
 * files may keep busy. Each step gives the next file to the worker that is free first. While files of no
 * lane are left, at most `workers - cores` lanes run at once (at least one; on 2 cores and 3 workers: one
 * waiting file beside two CPU-bound ones): the worker takes the next file of a free lane (the lane with
 * the most time left first, its longest file first) if fewer lanes run, else a file of no lane (those of
 * LONG_SECONDS or more first, longest first; the others in vitest's order, so a worker keeps one project's
 * module cache).
 * When only lanes are left: a free lane's next file, else the file of the lane that frees soonest.
 */
export function laneOrder(
  specs: TestSpecification[],
  root: string,
  workers: number,
  expectedSeconds: (spec: TestSpecification) => number | undefined,
  cores = workers,
): TestSpecification[] {
  const items: Item[] = specs.map((spec) => {
    const file = relative(root, spec.moduleId);
    return {
      spec,
      lane: laneOf(spec.project.name, file),
      seconds: expectedSeconds(spec) ?? KNOWN_SECONDS[`${spec.project.name}:${file}`] ?? DEFAULT_SECONDS[spec.project.name] ?? 5,
    };
  });
  // (the long free files first, longest first; the others in vitest's order, so a worker keeps one
  // project's module cache)
  const long = items.filter((i) => i.lane === null && i.seconds >= LONG_SECONDS).sort((a, b) => b.seconds - a.seconds);
  const free = [...long, ...items.filter((i) => i.lane === null && i.seconds < LONG_SECONDS)];
  const laned = new Map<string, Item[]>();
  for (const i of items) if (i.lane !== null) laned.set(i.lane, [...(laned.get(i.lane) ?? []), i]);
  for (const [lane, list] of laned) if (!ORDERED_LANES.has(lane)) list.sort((a, b) => b.seconds - a.seconds);
  const laneFreeAt = new Map<string, number>([...laned.keys()].map((l) => [l, 0]));
  const left = (lane: string) => laned.get(lane)!.reduce((n, i) => n + i.seconds, 0);
  const workerFreeAt = Array.from({ length: Math.max(1, workers) }, () => 0);
  const order: TestSpecification[] = [];
  while (order.length < items.length) {
    const w = workerFreeAt.indexOf(Math.min(...workerFreeAt));
    const now = workerFreeAt[w]!;
    const open = [...laned.keys()].filter((l) => laned.get(l)!.length > 0);
    const ready = open.filter((l) => laneFreeAt.get(l)! <= now).sort((a, b) => left(b) - left(a));
    const running = [...laneFreeAt.values()].filter((t) => t > now).length;
    const maxLanes = free.length > 0 ? Math.max(1, workerFreeAt.length - cores) : Infinity;
    let next: Item;
    let start = now;
    if (ready.length > 0 && running < maxLanes) next = laned.get(ready[0]!)!.shift()!;
    else if (free.length > 0) next = free.shift()!;
    else if (ready.length > 0) next = laned.get(ready[0]!)!.shift()!;
    else {
      const soonest = open.sort((a, b) => laneFreeAt.get(a)! - laneFreeAt.get(b)!)[0]!;
      next = laned.get(soonest)!.shift()!;
      start = laneFreeAt.get(soonest)!;
    }
    const end = start + next.seconds;
    workerFreeAt[w] = end;
    if (next.lane !== null) laneFreeAt.set(next.lane, end);
    order.push(next.spec);
  }
  return order;
}
