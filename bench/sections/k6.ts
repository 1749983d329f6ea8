import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { buildUiIfStale } from '../../scripts/build-ui.mjs';
import { ADMIN } from '../lib/context.js';
import type { LoadResult } from '../lib/load.js';
import { freePort, LOG_DIR, REPO_ROOT } from '../lib/proc.js';
import { check, type Check, type Row } from '../lib/report.js';
import type { Section } from '../lib/section.js';

/** Where k6 is: PATH, then where `go install` (and scripts/install-test-deps.sh) put it. */
export function findK6(): string | null {
  const candidates = [process.env.K6_BIN, '/usr/local/bin/k6', join(os.homedir(), 'go', 'bin', 'k6')].filter(Boolean) as string[];
  const onPath = spawnSync('sh', ['-c', 'command -v k6'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) candidates.unshift(onPath);
  return candidates.find((c) => existsSync(c)) ?? null;
}

/** What the product under k6 is started with: the bench's administrator, the demo practice, no sign-in limit. */
export const K6_PRODUCT_ENV = {
  ADMIN_USERNAME: ADMIN.username,
  ADMIN_PASSWORD: ADMIN.password,
  SEED_DEMO: 'true',
  DEMO_PASSWORD: 'bench-demo-password-2026',
  SIGN_IN_RATE_LIMIT: '1000000',
  LOG_LEVEL: 'warn',
};

/** The k6 rate (requests per second over the whole mix) and length; stated in the report. */
const RATE = Number(process.env.K6_RATE ?? 40);
const DURATION_S = Number(process.env.K6_DURATION_S ?? 60);

export interface K6Trend {
  avg: number;
  min: number;
  med: number;
  max: number;
  'p(90)': number;
  'p(95)': number;
  'p(99)': number;
}
export interface K6Summary {
  metrics: Record<string, { values: Record<string, number> & Partial<K6Trend>; thresholds?: Record<string, { ok: boolean }> } | undefined>;
}

export function loadAvg(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
}

/** k6's summary as the bench's row shape (latency in ms, the whole mix as one target). */
export function rowOf(key: string, label: string, url: string, s: K6Summary, rate = RATE, durationS = DURATION_S): Row {
  const d = s.metrics.http_req_duration!.values as unknown as K6Trend;
  const reqs = s.metrics.http_reqs!.values;
  const failedRate = s.metrics.http_req_failed?.values.rate ?? 0;
  const count = reqs.count ?? 0;
  const failed = Math.round(count * failedRate);
  const result: LoadResult = {
    url,
    generator: 'paced',
    connections: 0,
    durationS,
    targetRate: rate,
    ok: count - failed,
    rps: reqs.rate ?? 0,
    latency: { samples: count, p50: d.med, p90: d['p(90)'], p99: d['p(99)'], mean: d.avg, max: d.max },
    non2xx: failed,
    errors: 0,
    timeouts: 0,
    statusCodes: failed ? { 'failed (4xx/5xx/network)': failed } : {},
  };
  return { key, label, result };
}

/** A launcher (npm start's server, or npm run start:distributed) as a child, stopped with SIGTERM. */
export async function launch(name: string, script: string, env: Record<string, string>, port: number, readyTimeoutMs: number) {
  const log = join(LOG_DIR, `${name}.log`);
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LANG: 'C.UTF-8', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: a stop reaches every process it started, even if it hangs
  });
  let out = '';
  const keep = (b: Buffer) => void (out = (out + b.toString('utf8')).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    process.kill(-child.pid!, 'SIGTERM');
    const t = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 30_000);
    await exited;
    clearTimeout(t);
    mkdirSync(LOG_DIR, { recursive: true });
    writeFileSync(log, out);
  };
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited before it was ready:\n${out.slice(-3000)}`);
    const res = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
    if (res?.status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} not ready after ${readyTimeoutMs / 1000} s:\n${out.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  return { stop, output: () => out, pid: child.pid! };
}

/** k6 on infra/k6/mixed.js at `rate` for `durationS` (default: K6_RATE, K6_DURATION_S); onSpawn gets its pid. */
export function runK6(
  k6: string,
  baseUrl: string,
  summaryPath: string,
  log: (m: string) => void,
  o: { rate?: number; durationS?: number; onSpawn?: (pid: number) => void } = {},
): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      k6,
      [
        'run',
        '--quiet',
        '--no-usage-report',
        '-e',
        `BASE_URL=${baseUrl}`,
        '-e',
        `ADMIN_USERNAME=${ADMIN.username}`,
        '-e',
        `ADMIN_PASSWORD=${ADMIN.password}`,
        '-e',
        `RATE=${o.rate ?? RATE}`,
        '-e',
        `DURATION=${o.durationS ?? DURATION_S}s`,
        '-e',
        `SUMMARY=${summaryPath}`,
        join(REPO_ROOT, 'infra/k6/mixed.js'),
      ],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    if (child.pid) o.onSpawn?.(child.pid);
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => void (stdout += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => void (stdout += b.toString('utf8')));
    child.on('exit', (code) => {
      log(stdout.trim().split('\n').slice(-12).join(' | '));
      resolve({ code: code ?? 1, stdout });
    });
  });
}

/**
 * (k) The k6 mixed workload (infra/k6/mixed.js: public pages, sign-in, client list and search, a
 * document upload, the unread-notification count) at a stated rate, against the all-in-one product
 * (npm start's server, on the bench's PostgreSQL) and the distributed product (npm run
 * start:distributed: every service its own process, crm and documents twice), one after the other,
 * each with the demo practice seeded. Thresholds from issue #20: p95 < 200 ms, p99 < 400 ms, < 0.1 %
 * failed. k6 runs on the same 2 cores as what it measures: the load average is stated.
 */
export const k6Section: Section = {
  name: 'k6',
  title: `k6 mixed workload at ${RATE} req/s for ${DURATION_S} s: all-in-one vs distributed`,
  description:
    '(k) infra/k6/mixed.js through the gateway: npm start vs npm run start:distributed (needs k6: go install go.k6.io/k6@latest)',
  async run(ctx, scope) {
    const k6 = findK6();
    if (!k6)
      throw new Error('k6 is not installed: `GOBIN=/usr/local/bin go install go.k6.io/k6@latest` (scripts/install-test-deps.sh does it)');
    buildUiIfStale(REPO_ROOT);
    const work = mkdtempSync(join(os.tmpdir(), 'bench-k6-'));
    scope.onCleanup(async () => rmSync(work, { recursive: true, force: true }));
    const rows: Row[] = [];
    const checks: Check[] = [];
    const notes: string[] = [`machine load before: ${loadAvg()} (1/5/15 min), ${os.availableParallelism()} cores`];
    const common = K6_PRODUCT_ENV;

    const pgEnv = await ctx.infra.ensure('postgres');
    const products = [
      {
        key: 'k1',
        label: 'all-in-one (npm start)',
        start: async (port: number) =>
          launch(
            'k6-all-in-one',
            'gateway/src/all-in-one.ts',
            { ...common, DATA_DIR: join(work, 'aio'), DATABASE_URL: await scope.database(pgEnv.DATABASE_URL!, 'k6_aio') },
            port,
            120_000,
          ),
      },
      {
        key: 'k2',
        label: 'distributed (npm run start:distributed, 2 crm + 2 documents)',
        start: (port: number) =>
          launch(
            'k6-distributed',
            'scripts/start-distributed.ts',
            { ...common, DATA_DIR: join(work, 'dist'), REPLICAS: '2' },
            port,
            240_000,
          ),
      },
    ];
    for (const p of products) {
      const port = await freePort();
      ctx.log(`k6: starting ${p.label} on ${port}`);
      const server = await p.start(port);
      try {
        ctx.log(`k6: running ${RATE} req/s for ${DURATION_S} s against ${p.label} (load ${loadAvg()})`);
        const summaryPath = join(work, `${p.key}.json`);
        const { code } = await runK6(k6, `http://127.0.0.1:${port}`, summaryPath, (m) => ctx.log(`k6: ${m}`));
        if (!existsSync(summaryPath)) throw new Error(`k6 wrote no summary (exit ${code})`);
        const summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as K6Summary;
        const row = rowOf(p.key, p.label, `http://127.0.0.1:${port}`, summary);
        rows.push(row);
        const d = summary.metrics.http_req_duration!.values as unknown as K6Trend;
        checks.push(check(`(${p.key}) p95, whole mix`, 'ms', [], d['p(95)'], { op: '<', target: 200 }));
        checks.push(check(`(${p.key}) p99, whole mix`, 'ms', [], d['p(99)'], { op: '<', target: 400 }));
        checks.push(
          check(`(${p.key}) failed requests`, 'pct', [], (summary.metrics.http_req_failed?.values.rate ?? 0) * 100, {
            op: '<',
            target: 0.1,
          }),
        );
        for (const scenario of ['publicPages', 'clients', 'notifications', 'upload', 'signIn']) {
          const m = summary.metrics[`http_req_duration{scenario:${scenario}}`];
          if (m) checks.push(check(`(${p.key}) p95, ${scenario}`, 'ms', [], (m.values as unknown as K6Trend)['p(95)']));
        }
        const dropped = summary.metrics.dropped_iterations?.values.count ?? 0;
        notes.push(`(${p.key}) k6 exit ${code}; dropped iterations ${dropped}; load after: ${loadAvg()}`);
      } finally {
        await server.stop();
      }
    }
    return { rows, checks, notes };
  },
};
