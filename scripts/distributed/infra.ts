// PostgreSQL, Redis, Kafka and MinIO on 127.0.0.1, through the infra/ launchers.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env, Infra, ProcessInfo } from '../distributed.js';
import { freePort, portFree } from './ports.js';
import { throwIfCancelled } from './readiness.js';
import { repoRoot } from './repo-root.js';

/** Run an infra/ launcher; returns its KEY=VALUE lines. */
export function infraScript(
  script: string,
  cmd: 'start' | 'stop' | 'status',
  env: Env,
): { ok: boolean; vars: Record<string, string>; err: string } {
  const r = spawnSync('bash', [join(repoRoot, 'infra', script), cmd], {
    env: env as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: 180_000,
  });
  const vars: Record<string, string> = {};
  for (const line of (r.stdout ?? '').split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line);
    if (m) vars[m[1]!] = m[2]!;
  }
  return { ok: r.status === 0, vars, err: r.stderr ?? '' };
}

interface InfraServer {
  name: string;
  script: string;
  portVars: string[];
  pidFile: (runDir: string) => string | null;
}

export const INFRA_SERVERS: InfraServer[] = [
  { name: 'postgres', script: 'postgres.sh', portVars: ['PG_PORT'], pidFile: () => null },
  { name: 'redis', script: 'redis.sh', portVars: ['REDIS_PORT'], pidFile: (d) => join(d, 'redis', 'redis.pid') },
  {
    name: 'kafka',
    script: 'kafka/kafka.sh',
    portVars: ['KAFKA_PORT', 'KAFKA_CONTROLLER_PORT'],
    pidFile: (d) => join(d, 'kafka', 'kafka.pid'),
  },
  { name: 'minio', script: 'minio.sh', portVars: ['MINIO_PORT'], pidFile: (d) => join(d, 'minio', 'minio.pid') },
];

/**
 * PostgreSQL, Redis, Kafka and MinIO in DATA_DIR/infra, each on the port it had last time when that is
 * still free (else a free one). Returns what they print and how to stop them.
 */
export async function startInfra(dataDir: string, log: (l: string) => void, signal?: AbortSignal) {
  const runDir = join(dataDir, 'infra');
  mkdirSync(runDir, { recursive: true });
  const portsFile = join(runDir, 'ports.json');
  const saved: Record<string, number> = existsSync(portsFile)
    ? (JSON.parse(readFileSync(portsFile, 'utf8')) as Record<string, number>)
    : {};
  const ports: Record<string, number> = {};
  for (const s of INFRA_SERVERS)
    for (const v of s.portVars) ports[v] = saved[v] && (await portFree(saved[v])) ? saved[v] : await freePort();
  const baseEnv: Env = { PATH: process.env.PATH, HOME: process.env.HOME, INFRA_RUN_DIR: runDir };
  const started: InfraServer[] = [];
  const vars: Record<string, string> = {};
  const info: ProcessInfo[] = [];
  const stopAll = () => {
    for (const s of [...started].reverse())
      infraScript(s.script, 'stop', { ...baseEnv, ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) });
  };
  try {
    for (const s of INFRA_SERVERS) {
      // (each launcher runs synchronously: a Ctrl-C meanwhile is handled here, on a turn of the event loop)
      await new Promise((r) => setImmediate(r));
      throwIfCancelled(signal);
      const env: Env = { ...baseEnv, ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) };
      let r = infraScript(s.script, 'status', env);
      // (listed before it starts: a start interrupted half-way, e.g. its launcher hit by the Ctrl-C too, is stopped as well)
      started.push(s);
      if (!r.ok) {
        log(`starting ${s.name}…`);
        r = infraScript(s.script, 'start', env);
        if (!r.ok) throw new Error(`${s.name} did not start:\n${r.err.trim().split('\n').slice(-8).join('\n')}`);
      }
      Object.assign(vars, r.vars);
      const url = Object.values(r.vars)[0] ?? '';
      const port = Number(/:(\d+)/.exec(url.replace(/^[a-z]+:\/\/[^@]*@/, ''))?.[1] ?? /:(\d+)/.exec(url)?.[1] ?? 0);
      if (s.portVars.length === 1) ports[s.portVars[0]!] = port || ports[s.portVars[0]!]!;
      const pf = s.pidFile(runDir);
      let pid = pf && existsSync(pf) ? Number(readFileSync(pf, 'utf8').trim()) : 0;
      if (s.name === 'postgres') pid = postgresPid(url);
      info.push({ name: s.name, service: s.name, pid, port, url, kind: 'infra' });
    }
    await new Promise((r) => setImmediate(r));
    throwIfCancelled(signal);
  } catch (err) {
    stopAll();
    throw err;
  }
  writeFileSync(portsFile, JSON.stringify(ports, null, 2));
  const infra: Infra = {
    databaseUrl: vars.DATABASE_URL!,
    redisUrl: vars.REDIS_URL!,
    kafkaBrokers: vars.KAFKA_BROKERS!,
    s3: Object.fromEntries(Object.entries(vars).filter(([k]) => k.startsWith('S3_'))),
  };
  return { infra, info, stop: stopAll };
}

/** The postmaster's pid, asked of the server itself (its data folder may be elsewhere when running as root). */
export function postgresPid(url: string): number {
  const r = spawnSync(
    process.execPath,
    [
      '-e',
      `const pg=require('pg');const c=new pg.Client(${JSON.stringify(url)});c.connect().then(()=>c.query("select setting from pg_settings where name='data_directory'")).then(r=>{process.stdout.write(require('fs').readFileSync(r.rows[0].setting+'/postmaster.pid','utf8').split('\\n')[0]);return c.end()}).catch(()=>process.exit(1))`,
    ],
    { cwd: repoRoot, encoding: 'utf8', timeout: 10_000 },
  );
  return Number(r.stdout?.trim()) || 0;
}
