import './node-version.mjs'; // first: an older Node.js stops here with a sentence
// Each process's CPU at idle (issue 35: "idle that costs nothing"), for docs/perf/idle-cpu.md. Starts the
// distributed product compiled, lets it settle SETTLE_S seconds after it is ready, then reads the CPU time
// (user + system, /proc/<pid>/stat) of every process and its descendants over IDLE_S seconds, and prints a
// Markdown table (CPU ms per idle second, i.e. thousandths of one core) with the machine's load.
//
// Two ways to run it:
//   npx node --import tsx scripts/measure-idle-cpu.ts
//     the product as `npm run start:distributed` runs it: its own PostgreSQL, Redis, Kafka and MinIO in a
//     throwaway folder, measured too (PostgreSQL with its backends, Kafka's JVM): the whole figure.
//   DATABASE_URL=postgres://…/postgres REDIS_URL=redis://… KAFKA_BROKERS=… S3_ENDPOINT=… (all six S3_*) \
//     npx node --import tsx scripts/measure-idle-cpu.ts
//     on servers already running (shared with other work, so only the product's processes are measured).
// REPLICAS (default 1) and SETTLE_S (20) / IDLE_S (30) as the environment says.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { CpuProbe } from '../bench/lib/cpu.js';
import { freePort, startDistributed, type Infra } from './distributed.js';
import { requireInfraEnv, throwawayInfra } from './measure-setup.js';

const env = process.env;
const settleS = Number(env.SETTLE_S || 20);
const idleS = Number(env.IDLE_S || 30);
const replicas = env.REPLICAS || '1';
const ownInfra = !env.DATABASE_URL;
if (!ownInfra) requireInfraEnv(env);

let infra: Infra | undefined;
let dataDir: string;
let cleanup: () => Promise<void>;
if (ownInfra) {
  dataDir = mkdtempSync(join(os.tmpdir(), 'ch-idle-'));
  cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
} else {
  ({ infra, dataDir, cleanup } = await throwawayInfra(env, 'ch_idle'));
}
const run = randomUUID().slice(0, 8);
process.stderr.write(`starting the product (compiled, ${replicas} replica(s) each${ownInfra ? ', its own infrastructure' : ''})…\n`);
const product = await startDistributed({
  infra,
  kafkaNamespace: ownInfra ? undefined : `idle-${run}.`,
  log: (l) => process.stderr.write(`  ${l}\n`),
  env: {
    PATH: env.PATH,
    HOME: env.HOME,
    NODE_ENV: 'production',
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    REPLICAS: replicas,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    ADMIN_PASSWORD: randomUUID(),
    BULLMQ_PREFIX: `idle-${run}`,
  },
});
let rows: Array<[string, string, number]>;
let machinePct: number;
let othersPct: number;
const loadBefore = os.loadavg();
try {
  await new Promise((r) => setTimeout(r, settleS * 1000));
  const procs = product.processes();
  // each process with its descendants (PostgreSQL's backends, the shell a launcher may leave between)
  const probe = new CpuProbe(Object.fromEntries(procs.map((p) => [p.name, () => [p.pid]])));
  probe.start();
  await new Promise((r) => setTimeout(r, idleS * 1000));
  const usage = probe.stop();
  machinePct = usage.machinePct;
  othersPct = usage.othersPct;
  rows = procs.map((p) => [p.name, p.kind, (usage.groups[p.name]! * 1000) / usage.seconds]);
} finally {
  await product.stop();
  await cleanup();
}
const sum = (kind?: string) => rows.filter(([, k]) => !kind || (kind === 'infra') === (k === 'infra')).reduce((s, [, , v]) => s + v, 0);
const lines = [
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${idleS} s idle, ${settleS} s after ready; ` +
    `${os.cpus().length} CPUs; load average ${loadBefore.map((l) => l.toFixed(2)).join(' / ')} before, ` +
    `${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')} after (1/5/15 min); the machine ${machinePct.toFixed(1)} % busy meanwhile, ` +
    `${othersPct.toFixed(1)} % of it in processes not measured here; Node ${process.version}.`,
  '',
  '| Process | CPU ms per idle second |',
  '| --- | ---: |',
  ...rows.map(([name, , v]) => `| ${name} | ${v.toFixed(1)} |`),
  `| **the product's ${rows.filter(([, k]) => k !== 'infra').length} Node processes** | **${sum('node').toFixed(1)}** |`,
  ...(ownInfra ? [`| **infrastructure (${rows.filter(([, k]) => k === 'infra').length})** | **${sum('infra').toFixed(1)}** |`] : []),
  `| **all ${rows.length}** | **${sum().toFixed(1)}** |`,
];
process.stdout.write(`${lines.join('\n')}\n`);
