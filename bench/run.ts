// npm run bench [-- <section>...] [--duration S] [--connections N] [--warmup S] [--rounds N] [--rate R] [--list]
//
// Load tests on 127.0.0.1 only. Servers run as child processes; the load generator (autocannon's
// programmatic API) runs in this process. Progress goes to stderr, the report to stdout, and the
// same figures to bench/results/latest.json. Every child process (and any infra server this run
// started) is stopped at the end, on failure and on Ctrl-C. See bench/README.md.
import '../scripts/node-version.mjs'; // first: an older Node.js stops here with a sentence
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BenchContext, type BenchSettings } from './lib/context.js';
import { stopAllLoad } from './lib/load.js';
import { killAllNow, REPO_ROOT, RESULTS_DIR } from './lib/proc.js';
import { formatAim, formatValue, verdict, type SectionReport } from './lib/report.js';
import { renderSection, renderTable } from './lib/table.js';
import { SECTIONS } from './sections/index.js';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: 'string' },
    connections: { type: 'string' },
    warmup: { type: 'string' },
    rate: { type: 'string' },
    rounds: { type: 'string' },
    list: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (flags.help || flags.list) {
  process.stdout.write(
    'npm run bench [-- <section>...] [--duration 8] [--connections 20] [--warmup 3] [--rounds 2] [--rate 1000]\n\nSections:\n',
  );
  for (const s of SECTIONS) process.stdout.write(`  ${s.name.padEnd(12)} ${s.description}\n`);
  process.exit(0);
}

const num = (v: string | undefined, fallback: number) => {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`not a positive number: ${v}`);
  return n;
};
const settings: BenchSettings = {
  connections: num(flags.connections, 20),
  durationS: num(flags.duration, 8),
  warmupS: num(flags.warmup, 3),
  fixedRate: num(flags.rate, 1000),
  rounds: Math.round(num(flags.rounds, 2)),
  keepInfra: process.env.BENCH_KEEP_INFRA === '1',
};

const unknown = positionals.filter((p) => !SECTIONS.some((s) => s.name === p));
if (unknown.length) {
  process.stderr.write(`unknown section(s): ${unknown.join(', ')}; known: ${SECTIONS.map((s) => s.name).join(', ')}\n`);
  process.exit(2);
}
const selected = positionals.length ? SECTIONS.filter((s) => positionals.includes(s.name)) : SECTIONS;

/** stdout, else stderr (nginx -v prints there), of a short command. */
function tryRun(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { cwd: REPO_ROOT, encoding: 'utf8', timeout: 5_000 });
  if (r.error) return 'n/a';
  return (r.stdout || r.stderr || '').trim();
}

function machineFacts() {
  const cpus = os.cpus();
  const autocannonVersion = (
    JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/autocannon/package.json'), 'utf8')) as { version: string }
  ).version;
  const dirty = tryRun('git', ['status', '--porcelain', '--untracked-files=no']) ? ' (with uncommitted changes)' : '';
  return {
    cores: os.availableParallelism(),
    cpu: cpus[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    autocannon: autocannonVersion,
    nginx: tryRun('nginx', ['-v']).replace(/^nginx version: /, ''),
    commit: `${tryRun('git', ['rev-parse', '--short', 'HEAD'])}${dirty}`,
    loadAverageAtStart: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}

const facts = machineFacts();
const ctx = new BenchContext(settings);
const reports: SectionReport[] = [];
const startedAt = new Date();
let interrupted = false;

function renderReport(): string {
  const out: string[] = [];
  out.push('');
  out.push(`Countinghouse bench, ${startedAt.toISOString()}${interrupted ? ' (INTERRUPTED)' : ''}`);
  out.push(
    `machine: ${facts.cores} cores (${facts.cpu}), ${facts.memoryGb} GB, ${facts.os}; node ${facts.node}; autocannon ${facts.autocannon}; nginx ${facts.nginx}; commit ${facts.commit}`,
  );
  out.push(
    `load: ${settings.connections} connections, ${settings.durationS} s measured after ${settings.warmupS} s warm-up per target, ` +
      `${settings.rounds} interleaved round(s) per comparison; fixed-rate runs at ${settings.fixedRate} req/s. ` +
      `Load generator (this process), servers, PostgreSQL and Kafka all share the ${facts.cores} cores.`,
  );
  const [l1] = facts.loadAverageAtStart;
  if (l1 !== undefined && l1 > facts.cores * 0.5) {
    out.push(`WARNING: load average ${l1} at start: other processes were busy; the figures below are depressed and noisy.`);
  }
  out.push('Latencies: every 2xx response, exact percentiles at microsecond resolution.');
  for (const r of reports) {
    out.push('');
    out.push(renderSection(r));
  }
  const aims = reports.flatMap((r) => r.checks.filter((c) => c.aim).map((c) => ({ section: r.name, c })));
  if (aims.length) {
    out.push('');
    out.push('== Aims');
    out.push(
      renderTable(
        ['section', 'figure', 'value', 'aim', 'verdict'],
        aims.map(({ section, c }) => [section, c.label, formatValue(c.value, c.unit), formatAim(c), verdict(c)]),
        ['l', 'l', 'r', 'l', 'l'],
      ),
    );
  }
  return out.join('\n') + '\n';
}

function writeJson(file: string) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const json = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    interrupted,
    machine: { ...facts, loadAverageAtEnd: os.loadavg().map((l) => Number(l.toFixed(2))) },
    settings,
    sections: reports,
  };
  writeFileSync(file, JSON.stringify(json, null, 2) + '\n');
}

let finishing = false;
async function finish(code: number) {
  if (finishing) return;
  finishing = true;
  stopAllLoad();
  try {
    await ctx.close();
  } catch (err) {
    process.stderr.write(`cleanup failed: ${(err as Error).message}\n`);
  }
  killAllNow();
  process.stdout.write(renderReport());
  const file = join(RESULTS_DIR, 'latest.json');
  writeJson(file);
  process.stdout.write(`\nJSON: ${file.replace(REPO_ROOT, '')}\n`);
  process.exit(code);
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(sig, () => {
    if (finishing) {
      killAllNow();
      process.exit(130);
    }
    interrupted = true;
    ctx.log(`${sig}: stopping servers (again to force)`);
    void finish(130);
  });
}
process.on('exit', killAllNow);

ctx.log(
  `sections: ${selected.map((s) => s.name).join(', ')}; ${facts.cores} cores, node ${facts.node}, load average ${facts.loadAverageAtStart.join(' ')}`,
);
let failed = false;
for (const section of selected) {
  if (interrupted) break;
  const t0 = Date.now();
  const scope = ctx.scope();
  const report: SectionReport = { name: section.name, title: section.title, rows: [], checks: [], notes: [], seconds: 0 };
  try {
    ctx.log(`section ${section.name}: start`);
    const out = await section.run(ctx, scope);
    report.rows = out.rows;
    report.checks = out.checks;
    report.notes = out.notes ?? [];
  } catch (err) {
    if (interrupted) break;
    failed = true;
    report.error = (err as Error).message;
    ctx.log(`section ${section.name} failed: ${(err as Error).stack ?? String(err)}`);
  } finally {
    await scope.close();
    // shared resources no later section uses go now, so they do not disturb the next measurements
    const later = new Set(selected.slice(selected.indexOf(section) + 1).flatMap((s) => s.uses ?? []));
    for (const name of ctx.sharedNames()) if (!later.has(name)) await ctx.release(name);
    report.seconds = (Date.now() - t0) / 1000;
  }
  reports.push(report);
}
if (!interrupted) await finish(failed ? 1 : 0);
