import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { basename, join } from 'node:path';
import pg from 'pg';
import { buildUiIfStale } from '../../scripts/build-ui.mjs';
import { CpuProbe, type CpuUsage } from '../lib/cpu.js';
import { freePort, REPO_ROOT } from '../lib/proc.js';
import { check, type Check, type Row } from '../lib/report.js';
import type { Section } from '../lib/section.js';
import { renderTable } from '../lib/table.js';
import { findK6, K6_PRODUCT_ENV, launch, loadAvg, rowOf, runK6, type K6Summary, type K6Trend } from './k6.js';

/**
 * (cap) Capacity (issue 35): the highest rate of the k6 mix (infra/k6/mixed.js) each form of the product
 * carries on this machine with p95 < 200 ms, p99 < 400 ms, no failed request and no dropped iteration,
 * found by stepping the rate up until a step misses an aim; the machine's load before each step; and,
 * for the distributed product, each process's CPU at idle and under the mix.
 *
 * Env: CAPACITY_RATES (iterations a second to step through, "50,100,150,175,200,225,250,300"),
 * CAPACITY_STEP_S (seconds per step, 30), CAPACITY_MODES ("aio,dist2": the all-in-one, and the distributed
 * product with crm and documents twice; "dist1", "dist4" add 1 or 4 replicas), CAPACITY_TABLE_RATE (150:
 * the step whose per-process CPU is tabled). Each step is k6's own open-model run (a slow answer does not
 * slow the offered load); k6 shares the two cores and its CPU is shown. Needs k6.
 */
const RATES = (process.env.CAPACITY_RATES ?? '50,100,150,175,200,225,250,300')
  .split(',')
  .map((r) => Number(r.trim()))
  .filter((r) => r > 0);
const STEP_S = Number(process.env.CAPACITY_STEP_S ?? 30);
const MODES = (process.env.CAPACITY_MODES ?? 'aio,dist2').split(',').map((m) => m.trim());
const TABLE_RATE = Number(process.env.CAPACITY_TABLE_RATE ?? 150);
const IDLE_S = 15;

/** The aims a step must meet (issue 35). */
const AIM = { p95: 200, p99: 400 };

interface Step {
  rate: number;
  load: string;
  summary: K6Summary;
  cpu: CpuUsage;
  ok: boolean;
  why: string;
}

/** pid -> [ppid, command line], for every process now. */
function processTable(): Map<number, { ppid: number; cmd: string[] }> {
  const out = new Map<number, { ppid: number; cmd: string[] }>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').filter(Boolean);
      out.set(Number(d), { ppid, cmd });
    } catch {
      /* gone */
    }
  }
  return out;
}

/**
 * The Node processes a launcher started (its descendants running a compiled entry of dist/processes or a
 * service's source), named by service; replicas numbered in pid order.
 */
function productProcesses(launcherPid: number): Array<{ name: string; pid: number }> {
  const table = processTable();
  const descendants: number[] = [];
  const stack = [launcherPid];
  while (stack.length) {
    const p = stack.pop()!;
    for (const [pid, info] of table) {
      if (info.ppid !== p) continue;
      descendants.push(pid);
      stack.push(pid);
    }
  }
  const found: Array<{ service: string; pid: number }> = [];
  for (const pid of descendants.sort((a, b) => a - b)) {
    const entry = table.get(pid)!.cmd.find((a) => /dist\/processes\/[a-z-]+\.mjs$|\/src\/main\.ts$/.test(a));
    if (!entry) continue;
    const service = entry.endsWith('.mjs') ? basename(entry, '.mjs') : basename(entry.replace(/\/src\/main\.ts$/, ''));
    found.push({ service, pid });
  }
  const count = new Map<string, number>();
  for (const f of found) count.set(f.service, (count.get(f.service) ?? 0) + 1);
  const seen = new Map<string, number>();
  return found.map((f) => {
    const n = (seen.get(f.service) ?? 0) + 1;
    seen.set(f.service, n);
    return { name: (count.get(f.service) ?? 1) > 1 ? `${f.service}-${n}` : f.service, pid: f.pid };
  });
}

/**
 * The distributed product's own PostgreSQL, Redis, Kafka and MinIO (started by the launcher in its DATA_DIR;
 * PostgreSQL's data folder may be elsewhere, so it is asked for its own).
 */
async function infraPids(dataDir: string): Promise<Array<{ name: string; pid: number }>> {
  const run = join(dataDir, 'infra');
  const files: Array<[string, string]> = [
    ['redis', join(run, 'redis', 'redis.pid')],
    ['kafka', join(run, 'kafka', 'kafka.pid')],
    ['minio', join(run, 'minio', 'minio.pid')],
  ];
  const ports = JSON.parse(readFileSync(join(run, 'ports.json'), 'utf8')) as Record<string, number>;
  return [
    { name: 'postgres', pid: await postmasterPid(`postgres://postgres@127.0.0.1:${ports.PG_PORT}/postgres`) },
    ...files.filter(([, f]) => existsSync(f)).map(([name, f]) => ({ name, pid: Number(readFileSync(f, 'utf8').split('\n')[0]!.trim()) })),
  ].filter((p) => p.pid > 0);
}

/** CPU seconds of this process's children that have exited and been waited for (k6, once a step ends). */
function exitedChildrenCpu(): number {
  const f = readFileSync('/proc/self/stat', 'utf8');
  const v = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(v[13]) + Number(v[14])) / 100; // cutime + cstime, in USER_HZ ticks
}

/** The postmaster of the server behind `url`. */
async function postmasterPid(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ setting: string }>(`select setting from pg_settings where name = 'data_directory'`);
    return Number(readFileSync(join(rows[0]!.setting, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return 0; // another user's data folder: the server's CPU is then counted in "others"
  } finally {
    await c.end();
  }
}

const p = (s: K6Summary, q: 'p(95)' | 'p(99)') => (s.metrics.http_req_duration!.values as unknown as K6Trend)[q];

function verdictOf(s: K6Summary): { ok: boolean; why: string } {
  const failed = s.metrics.http_req_failed?.values.rate ?? 0;
  const dropped = s.metrics.dropped_iterations?.values.count ?? 0;
  const why: string[] = [];
  if (!(p(s, 'p(95)') < AIM.p95)) why.push(`p95 ${p(s, 'p(95)').toFixed(0)} ms`);
  if (!(p(s, 'p(99)') < AIM.p99)) why.push(`p99 ${p(s, 'p(99)').toFixed(0)} ms`);
  if (failed > 0) why.push(`${(failed * 100).toFixed(2)} % failed`);
  if (dropped > 0) why.push(`${dropped} dropped`);
  return { ok: why.length === 0, why: why.join(', ') };
}

export const capacitySection: Section = {
  name: 'capacity',
  title: `Capacity: the k6 mix stepped up (${RATES.join(', ')} iterations/s, ${STEP_S} s each) until an aim is missed`,
  description:
    '(cap) each form of the product stepped up the k6 mix to its knee (p95 < 200, p99 < 400 ms, 0 failed, 0 dropped); per-process CPU, idle and under the mix (needs k6)',
  async run(ctx, scope) {
    const k6 = findK6();
    if (!k6)
      throw new Error('k6 is not installed: `GOBIN=/usr/local/bin go install go.k6.io/k6@latest` (scripts/install-test-deps.sh does it)');
    buildUiIfStale(REPO_ROOT);
    const work = mkdtempSync(join(os.tmpdir(), 'bench-capacity-'));
    scope.onCleanup(async () => rmSync(work, { recursive: true, force: true }));
    const rows: Row[] = [];
    const checks: Check[] = [];
    const notes: string[] = [`${os.availableParallelism()} cores; load before the section: ${loadAvg()} (1/5/15 min)`];
    const pgEnv = MODES.includes('aio') ? await ctx.infra.ensure('postgres') : {};

    for (const mode of MODES) {
      const replicas = /^dist(\d+)$/.exec(mode)?.[1];
      if (mode !== 'aio' && !replicas) throw new Error(`CAPACITY_MODES: unknown mode ${mode} (aio, dist1, dist2, dist4…)`);
      const label = replicas ? `distributed, crm and documents x${replicas}` : 'all-in-one';
      const port = await freePort();
      const dataDir = join(work, mode);
      ctx.log(`capacity: starting ${label} on ${port}`);
      const server = replicas
        ? await launch(
            `capacity-${mode}`,
            'scripts/start-distributed.ts',
            { ...K6_PRODUCT_ENV, DATA_DIR: dataDir, REPLICAS: replicas },
            port,
            240_000,
          )
        : await launch(
            'capacity-aio',
            'gateway/src/all-in-one.ts',
            { ...K6_PRODUCT_ENV, DATA_DIR: dataDir, DATABASE_URL: await scope.database(pgEnv.DATABASE_URL!, 'capacity_aio') },
            port,
            120_000,
          );
      try {
        // the processes to measure, one group each (a group counts a process with its descendants)
        const procs = replicas
          ? [...(await infraPids(dataDir)), ...productProcesses(server.pid)]
          : [
              { name: 'all-in-one', pid: server.pid },
              { name: 'postgres', pid: await postmasterPid(pgEnv.DATABASE_URL!) },
            ].filter((x) => x.pid > 0);
        const groups = Object.fromEntries(procs.map((x) => [x.name, () => [x.pid]] as const));
        await new Promise((r) => setTimeout(r, 10_000)); // settle after ready
        const idleProbe = new CpuProbe(groups);
        idleProbe.start();
        await new Promise((r) => setTimeout(r, IDLE_S * 1000));
        const idle = idleProbe.stop();

        const steps: Step[] = [];
        for (const rate of RATES) {
          const load = loadAvg();
          ctx.log(`capacity: ${label} at ${rate} iterations/s for ${STEP_S} s (load ${load})`);
          const summaryPath = join(work, `${mode}-${rate}.json`);
          const probe = new CpuProbe(groups);
          const k6Before = exitedChildrenCpu();
          const { code } = await runK6(k6, `http://127.0.0.1:${port}`, summaryPath, (m) => ctx.log(`k6: ${m}`), {
            rate,
            durationS: STEP_S,
            onSpawn: () => probe.start(),
          });
          const cpu = probe.stop();
          // k6 has exited by now: its CPU is in this process's children's time, not in /proc/<its pid>
          cpu.groups.k6 = exitedChildrenCpu() - k6Before;
          cpu.othersPct = Math.max(0, cpu.othersPct - (cpu.groups.k6 / (cpu.seconds * os.availableParallelism())) * 100);
          if (!existsSync(summaryPath)) throw new Error(`k6 wrote no summary at ${rate}/s (exit ${code})`);
          const summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as K6Summary;
          const v = verdictOf(summary);
          steps.push({ rate, load, summary, cpu, ...v });
          const row = rowOf(
            `${mode}@${rate}`,
            `${label}, ${rate} it/s${v.ok ? '' : ` (missed: ${v.why})`}`,
            `http://127.0.0.1:${port}`,
            summary,
            rate,
            STEP_S,
          );
          row.result.cpu = cpu;
          rows.push(row);
          if (!v.ok) break; // past the knee: higher rates only queue more
          await new Promise((r) => setTimeout(r, 5000)); // let queues drain between steps
        }
        const passed = steps.filter((s) => s.ok);
        const knee = passed.length ? Math.max(...passed.map((s) => s.rate)) : 0;
        const kneeStep = steps.find((s) => s.rate === knee);
        const reqPerIt = kneeStep ? (kneeStep.summary.metrics.http_reqs!.values.rate ?? 0) / knee : 0;
        checks.push(
          check(
            `(${mode}) knee: highest rate meeting every aim, iterations/s`,
            'it/s',
            [],
            knee,
            mode === 'dist2' || mode === 'aio' ? { op: '>=', target: 150 } : undefined,
          ),
        );
        notes.push(
          `(${mode}) ${label}: knee ${knee} iterations/s (about ${Math.round(knee * reqPerIt)} req/s)` +
            (steps.at(-1) && !steps.at(-1)!.ok ? `; at ${steps.at(-1)!.rate}: ${steps.at(-1)!.why}` : '; no step missed an aim'),
        );
        for (const s of steps)
          notes.push(
            `(${mode}) ${s.rate} it/s: load before ${s.load}; p95 ${p(s.summary, 'p(95)').toFixed(1)} ms, p99 ${p(s.summary, 'p(99)').toFixed(1)} ms; ` +
              `machine ${s.cpu.machinePct.toFixed(0)} % busy, others ${s.cpu.othersPct.toFixed(0)} %`,
          );

        // per-process CPU: idle, and under the mix at TABLE_RATE (or the highest step that ran)
        const at = steps.find((s) => s.rate === TABLE_RATE) ?? steps.at(-1);
        if (at) {
          const requests = at.summary.metrics.http_reqs!.values.count ?? 0;
          const names = [...procs.map((x) => x.name), 'k6'];
          const line = (n: string) => {
            const idleMs = ((idle.groups[n] ?? 0) * 1000) / idle.seconds;
            const busyMs = ((at.cpu.groups[n] ?? 0) * 1000) / at.cpu.seconds;
            const perReq = requests ? ((at.cpu.groups[n] ?? 0) * 1e6) / requests : NaN;
            return [n, idleMs.toFixed(1), busyMs.toFixed(0), Number.isFinite(perReq) ? perReq.toFixed(0) : 'n/a'];
          };
          const sum = (u: CpuUsage, ns: string[]) => ns.reduce((a, n) => a + (u.groups[n] ?? 0), 0);
          const product = names.filter((n) => n !== 'k6');
          const table = renderTable(
            ['process', 'idle, CPU ms/s', `at ${at.rate} it/s, CPU ms/s`, 'CPU µs per request'],
            [
              ...names.map(line),
              [
                'the product (all but k6)',
                ((sum(idle, product) * 1000) / idle.seconds).toFixed(1),
                ((sum(at.cpu, product) * 1000) / at.cpu.seconds).toFixed(0),
                requests ? ((sum(at.cpu, product) * 1e6) / requests).toFixed(0) : 'n/a',
              ],
            ],
            ['l', 'r', 'r', 'r'],
          );
          notes.push(
            `(${mode}) CPU per process (idle: ${IDLE_S} s, 10 s after ready; under the mix: the ${at.rate} it/s step, ${requests} requests):\n${table}`,
          );
        }
      } finally {
        await server.stop();
      }
    }
    return { rows, checks, notes };
  },
};
