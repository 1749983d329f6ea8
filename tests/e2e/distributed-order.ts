import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative, resolve } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { laneOrder, orderedLanes, writeTurns } from '../lanes.js';

/**
 * The browser-distributed project's files share one product (tests/e2e/distributed-global-setup.ts), so
 * they run in a fixed order: first the ones that look at the whole practice (the staff file sees no
 * user yet, the documents page no document yet, the journey's client is the only paying one), then those
 * that work on clients of their own.
 */
export const BROWSER_DISTRIBUTED_FILES = [
  'tests/e2e/staff.test.ts',
  // (the admin panel's documents page starts empty: before the journey, whose client uploads through the portal)
  'tests/e2e/documents.test.ts',
  'tests/e2e/journey.test.ts',
  'tests/e2e/admin-login.test.ts',
  'tests/e2e/media.test.ts',
  'tests/e2e/settings.test.ts',
  'tests/e2e/notifications.test.ts',
  'tests/e2e/requests.test.ts',
  'tests/e2e/timeline.test.ts',
];

/**
 * vitest's own order for every project, but browser-distributed's files in the order above, and each
 * group's files in the lanes' order (tests/lanes.ts) when it has more than one worker.
 */
export class E2EOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const ours = (f: TestSpecification) => f.project.name === 'browser-distributed';
    const rank = (f: TestSpecification) => BROWSER_DISTRIBUTED_FILES.findIndex((p) => f.moduleId.endsWith(p));
    const ordered = sorted.filter(ours).sort((a, b) => rank(a) - rank(b));
    let i = 0;
    const inOrder = sorted.map((f) => (ours(f) ? ordered[i++]! : f));
    // (groups run one after the other, so each group is ordered on its own; the first group's workers
    // are the same for each of its projects: vitest refuses a group whose projects differ)
    const groups = new Map<number, TestSpecification[]>();
    for (const f of inOrder) {
      const g = f.project.config.sequence.groupOrder;
      groups.set(g, [...(groups.get(g) ?? []), f]);
    }
    const root = this.ctx.config.root;
    const cache = this.ctx.cache;
    const last = lastTimings(root);
    // (a file's expected time: the last timing report's, less its wait for its lane; else vitest's
    // cache of the last run; else its project's average, tests/lanes.ts)
    const expected = (f: TestSpecification) => {
      const key = `${f.project.name}:${relative(root, f.moduleId)}`;
      const ms = last.get(key) ?? cache.getFileTestResults(key)?.duration;
      return ms === undefined ? undefined : ms / 1000;
    };
    const out = [...groups.keys()]
      .sort((a, b) => a - b)
      .flatMap((g) => {
        const list = groups.get(g)!;
        const workers = list[0]!.project.config.maxWorkers;
        return workers > 1 ? laneOrder(list, root, workers, expected, Math.min(workers, availableParallelism())) : list;
      });
    // (the ordered lanes' files in this order, for the lanes' lock: a file waits for its turn, tests/lanes.ts)
    // (not when only some tests run, -t: a file none of whose tests runs never finishes)
    const handedOut = out.map((f) => ({ project: f.project.name, file: relative(root, f.moduleId) }));
    writeTurns(this.ctx.config.testNamePattern ? {} : orderedLanes(handedOut));
    // (TEST_PRINT_ORDER=1 prints the order the files are handed to the workers in: docs/perf/tests.md)
    if (process.env.TEST_PRINT_ORDER === '1') {
      process.stderr.write(`test order:\n${out.map((f) => `  ${f.project.name}  ${relative(root, f.moduleId)}`).join('\n')}\n`);
    }
    return out;
  }
}

/** Each file's time in the last timing report (tests/timing-reporter.ts), by 'project:file'. */
function lastTimings(root: string): Map<string, number> {
  const out = new Map<string, number>();
  const path = resolve(root, process.env.TEST_TIMINGS_FILE ?? 'test-results/timings.json');
  if (!existsSync(path)) return out;
  try {
    const report = JSON.parse(readFileSync(path, 'utf8')) as {
      files?: Array<{ project: string; file: string; wallMs: number; laneWaitMs?: number }>;
    };
    for (const f of report.files ?? []) out.set(`${f.project}:${f.file}`, Math.max(0, f.wallMs - (f.laneWaitMs ?? 0)));
  } catch {
    // (an unreadable report only loses the estimates)
  }
  return out;
}
