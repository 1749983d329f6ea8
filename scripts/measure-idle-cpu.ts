import './node-version.mjs'; // first: an older Node.js stops here with a sentence
// Each process's CPU at idle (issue 35: "idle that costs nothing"), for docs/perf/idle-cpu.md. Starts the
// distributed product compiled (REPLICAS=1) on servers already running, lets it settle SETTLE_S seconds
// after it is ready, then reads each process's user+system CPU time from /proc/<pid>/stat over IDLE_S
// seconds, and prints a Markdown table (CPU ms per idle second, i.e. thousandths of one core) with the
// machine's load: on a shared machine the figures are indicative.
//
//   DATABASE_URL=postgres://…/postgres REDIS_URL=redis://… KAFKA_BROKERS=… S3_ENDPOINT=… (all six S3_*) \
//     npx node --import tsx scripts/measure-idle-cpu.ts
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { freePort, startDistributed } from './distributed.js';
import { requireInfraEnv, throwawayInfra } from './measure-setup.js';

const env = process.env;
const settleS = Number(env.SETTLE_S || 20);
const idleS = Number(env.IDLE_S || 30);
requireInfraEnv(env);

const TICKS_PER_S = 100; // getconf CLK_TCK on Linux
/** user + system CPU time of a process so far, in ms (/proc/<pid>/stat fields 14 and 15). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // (the name may hold spaces)
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
}

const { infra, dataDir, cleanup } = await throwawayInfra(env, 'ch_idle');
const run = randomUUID().slice(0, 8);
process.stderr.write('starting the product (compiled, one replica each)…\n');
const product = await startDistributed({
  infra,
  kafkaNamespace: `idle-${run}.`,
  log: (l) => process.stderr.write(`  ${l}\n`),
  env: {
    PATH: env.PATH,
    HOME: env.HOME,
    NODE_ENV: 'production',
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    REPLICAS: '1',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    ADMIN_PASSWORD: randomUUID(),
    BULLMQ_PREFIX: `idle-${run}`,
  },
});
let rows: Array<[string, number]>;
const loadBefore = os.loadavg();
try {
  await new Promise((r) => setTimeout(r, settleS * 1000));
  const procs = product.processes().filter((p) => p.kind !== 'infra');
  const before = new Map(procs.map((p) => [p.pid, cpuMs(p.pid)]));
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, idleS * 1000));
  const seconds = (performance.now() - t0) / 1000;
  rows = procs.map((p) => [p.service, (cpuMs(p.pid) - before.get(p.pid)!) / seconds]);
} finally {
  await product.stop();
  await cleanup();
}
const total = rows.reduce((s, [, v]) => s + v, 0);
const lines = [
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${idleS} s idle, ${settleS} s after ready; ` +
    `${os.cpus().length} CPUs; load average ${loadBefore.map((l) => l.toFixed(1)).join(' / ')} before, ` +
    `${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} after (1/5/15 min); Node ${process.version}.`,
  '',
  '| Process | CPU ms per idle second |',
  '| --- | ---: |',
  ...rows.map(([name, v]) => `| ${name} | ${v.toFixed(1)} |`),
  `| **all ${rows.length}** | **${total.toFixed(1)}** |`,
];
process.stdout.write(`${lines.join('\n')}\n`);
