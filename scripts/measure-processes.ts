// Each process's resident memory at idle, run through tsx (TypeScript compiled at start) and compiled
// (npm run build:services), for docs/perf/processes.md (issue 20). Starts the distributed product twice
// (REPLICAS=1) on servers already running, waits IDLE_S seconds after it is ready, reads VmRSS from
// /proc/<pid>/status, and prints a Markdown table with the machine's load.
//
//   DATABASE_URL=postgres://…/postgres REDIS_URL=redis://… KAFKA_BROKERS=… S3_ENDPOINT=… (all six S3_*) \
//     node --import tsx scripts/measure-processes.ts
import './node-version.mjs'; // first: an older Node.js stops here with a sentence
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { freePort, startDistributed } from './distributed.js';
import { requireInfraEnv, throwawayInfra } from './measure-setup.js';

const env = process.env;
const idleS = Number(env.IDLE_S || 10);
requireInfraEnv(env);

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

async function measure(mode: 'tsx' | 'compiled'): Promise<Map<string, number>> {
  const { infra, dataDir, cleanup } = await throwawayInfra(env, 'ch_measure');
  const run = randomUUID().slice(0, 8);
  process.stderr.write(`starting the product (${mode})…\n`);
  const product = await startDistributed({
    infra,
    kafkaNamespace: `measure-${run}.`,
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
      BULLMQ_PREFIX: `measure-${run}`,
      ...(mode === 'tsx' ? { LAUNCH_WITH: 'tsx' } : {}),
    },
  });
  try {
    await new Promise((r) => setTimeout(r, idleS * 1000));
    return new Map(
      product
        .processes()
        .filter((p) => p.kind !== 'infra')
        .map((p) => [p.service, rssKb(p.pid)]),
    );
  } finally {
    await product.stop();
    await cleanup();
  }
}

const loadBefore = os.loadavg();
const tsx = await measure('tsx');
const compiled = await measure('compiled');
const mb = (kb: number) => (kb / 1024).toFixed(0);
const lines = [
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${idleS} s idle after ready; ${os.cpus().length} CPUs, ` +
    `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; load average ${loadBefore.map((l) => l.toFixed(1)).join(' / ')} before, ` +
    `${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} after (1/5/15 min); Node ${process.version}.`,
  '',
  '| Process | tsx (MB) | compiled (MB) | saved |',
  '| --- | ---: | ---: | ---: |',
];
let sumT = 0;
let sumC = 0;
for (const [name, t] of tsx) {
  const c = compiled.get(name) ?? 0;
  sumT += t;
  sumC += c;
  lines.push(`| ${name} | ${mb(t)} | ${mb(c)} | ${t ? Math.round((100 * (t - c)) / t) : 0} % |`);
}
lines.push(`| **all ${tsx.size}** | **${mb(sumT)}** | **${mb(sumC)}** | **${sumT ? Math.round((100 * (sumT - sumC)) / sumT) : 0} %** |`);
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
