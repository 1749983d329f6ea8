import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** One test file's figures (milliseconds). */
export interface FileTiming {
  project: string;
  file: string;
  /** From the worker taking the file to the file's end: import, set-up, hooks and tests. */
  wallMs: number;
  /** When the worker took it, from the run's start (null for a file that never started in a worker). */
  startMs: number | null;
  /** vitest's own split: importing the file (collect), set-up files, and tests with their hooks. */
  collectMs: number;
  setupMs: number;
  testsMs: number;
  tests: number;
  state: string;
  /** How long the file waited for its lane (tests/lanes.ts), included in wallMs; 0 for a file of no lane. */
  laneWaitMs: number;
}

/** One project's figures: from its first file's start to its last file's end, and the sum over its files. */
export interface ProjectTiming {
  project: string;
  files: number;
  tests: number;
  wallMs: number;
  /** Its first file's start and its last file's end, from the run's start: where the groups begin and end. */
  startMs: number | null;
  endMs: number | null;
  sumOfFilesMs: number;
  /** The sum of its files' waits for their lanes. */
  laneWaitMs: number;
}

const s = (ms: number) => (ms / 1000).toFixed(1);

/**
 * The per-file timing report (issue 27, item 5): each file's duration and each project's wall time,
 * printed after the run (the slowest files, every project) and written whole as JSON to
 * TEST_TIMINGS_FILE when it is set (scripts/test.sh sets it: test-results/timings.json). How to read it
 * and the figures measured: docs/perf/tests.md.
 */
export default class TimingReporter implements Reporter {
  private root = process.cwd();
  private runStart = Date.now();
  private started = new Map<string, number>();
  private ended = new Map<string, number>();

  onInit(vitest: Vitest) {
    this.root = vitest.config.root;
  }

  onTestRunStart() {
    this.runStart = Date.now();
  }

  // (queued: reported by the worker as it takes the file, before importing it; "start" comes after the import)
  onTestModuleQueued(m: TestModule) {
    this.started.set(m.id, Date.now());
  }

  onTestModuleEnd(m: TestModule) {
    this.ended.set(m.id, Date.now());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const files: FileTiming[] = [];
    const spans = new Map<string, { start: number; end: number; files: number; tests: number; sum: number; wait: number }>();
    for (const m of modules) {
      const project = m.project.name || 'default';
      const d = m.diagnostic();
      const start = this.started.get(m.id);
      const end = this.ended.get(m.id);
      const testsMs = d.duration;
      // (a file that never started in a worker, e.g. one that failed to import, has no start: vitest's figures)
      const wallMs =
        start !== undefined && end !== undefined ? end - start : d.prepareDuration + d.collectDuration + d.setupDuration + testsMs;
      const tests = [...m.children.allTests()].length;
      const laneWaitMs = (m.meta() as { laneWaitMs?: number }).laneWaitMs ?? 0;
      files.push({
        project,
        file: relative(this.root, m.moduleId),
        wallMs,
        startMs: start === undefined ? null : start - this.runStart,
        collectMs: Math.round(d.collectDuration),
        setupMs: Math.round(d.setupDuration),
        testsMs: Math.round(testsMs),
        tests,
        state: m.state(),
        laneWaitMs,
      });
      const span = spans.get(project) ?? { start: Infinity, end: 0, files: 0, tests: 0, sum: 0, wait: 0 };
      span.start = Math.min(span.start, start ?? Infinity);
      span.end = Math.max(span.end, end ?? 0);
      span.files++;
      span.tests += tests;
      span.sum += wallMs;
      span.wait += laneWaitMs;
      spans.set(project, span);
    }
    const projects: ProjectTiming[] = [...spans].map(([project, x]) => ({
      project,
      files: x.files,
      tests: x.tests,
      wallMs: Number.isFinite(x.start) && x.end > 0 ? x.end - x.start : x.sum,
      startMs: Number.isFinite(x.start) ? x.start - this.runStart : null,
      endMs: x.end > 0 ? x.end - this.runStart : null,
      sumOfFilesMs: x.sum,
      laneWaitMs: x.wait,
    }));
    files.sort((a, b) => b.wallMs - a.wallMs);
    const runMs = Date.now() - this.runStart;
    const load = loadavg().map((l) => l.toFixed(2));

    const out: string[] = ['', `timings: the run took ${s(runMs)} s (load average now ${load.join(', ')})`];
    for (const p of projects) {
      out.push(
        `timings: project ${p.project}: ${s(p.wallMs)} s wall` +
          (p.startMs !== null && p.endMs !== null ? ` (from ${s(p.startMs)} s to ${s(p.endMs)} s)` : '') +
          `, ${s(p.sumOfFilesMs)} s summed over ${p.files} files (${p.tests} tests)` +
          (p.laneWaitMs > 0 ? `, ${s(p.laneWaitMs)} s of it waiting for its lane` : ''),
      );
    }
    const top = Number(process.env.TEST_TIMINGS_TOP ?? 20);
    out.push(`timings: the ${Math.min(top, files.length)} slowest files (wall s; import s, tests s):`);
    for (const f of files.slice(0, top)) {
      out.push(`timings:   ${s(f.wallMs).padStart(7)}  ${s(f.collectMs).padStart(6)} ${s(f.testsMs).padStart(7)}  ${f.project}  ${f.file}`);
    }
    process.stdout.write(`${out.join('\n')}\n`);

    const target = process.env.TEST_TIMINGS_FILE;
    if (target) {
      mkdirSync(dirname(target), { recursive: true });
      const report = { finishedAt: new Date().toISOString(), runMs, loadAverage: loadavg(), projects, files };
      writeFileSync(target, `${JSON.stringify(report, null, 2)}\n`);
      process.stdout.write(`timings: written to ${target}\n`);
    }
  }
}
